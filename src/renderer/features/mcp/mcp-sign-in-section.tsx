/**
 * The OAuth sign-in of an HTTP service on its card: "signed in at … · expires …", Sign in / Sign
 * in again / Sign out, and while a sign-in waits for the browser, the link of its page (when the
 * browser did not open, or it opened on another machine than the one showing this page).
 */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { McpServiceView } from '../../data/mcp';
import { signInToMcpService, signOutOfMcpService } from '../../data/mcp';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { FieldErrorText } from '../settings/form-controls';
import { errorMessage } from '../settings/form-rules';

/**
 * Shown for HTTP services only (a stdio service has no sign-in), and not for one whose own
 * Authorization header authenticates it (OAuth never runs there). The status is the service's in
 * the shared list, which a sign-in or sign-out reloads.
 */
export function McpSignInSection(props: { service: McpServiceView }): ReactNode {
  const t = useT();
  const locale = useApp((state) => state.locale);
  const bridge = useApp((state) => state.bridge);
  const { service } = props;
  const [busy, setBusy] = useState<'login' | 'logout' | null>(null);
  const [pageUrl, setPageUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(
    () =>
      bridge?.onEvent('mcp.signInPage', ({ serviceId, url }) => {
        // Only a web page is linked (the main process checked it too).
        if (serviceId === service.id && /^https?:\/\//i.test(url)) setPageUrl(url);
      }),
    [bridge, service.id],
  );
  const status = service.signIn;
  if (status === null) return null;
  const ownAuthorization = service.headers.some(
    (header) => header.name.toLowerCase() === 'authorization',
  );
  if (ownAuthorization && !status.signedIn) return null;
  const act = async (kind: 'login' | 'logout'): Promise<void> => {
    if (!bridge) return;
    setBusy(kind);
    setError(null);
    setMessage(null);
    try {
      if (kind === 'login') {
        const result = await signInToMcpService(bridge, service.id);
        if (!result.ok) setError(result.message);
        else setMessage(result.message);
      } else {
        await signOutOfMcpService(bridge, service.id);
      }
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
      setPageUrl(null);
    }
  };
  const expires =
    status.expiresAt === null ? null : new Date(status.expiresAt).toLocaleString(locale);
  return (
    <section
      className={status.signedIn || busy !== null ? 'mcp-sign-in' : 'mcp-sign-in compact'}
      data-testid="mcp-sign-in"
      data-signed-in={status.signedIn}
      aria-label={t('mcp.signIn.title')}
    >
      <p className={status.signedIn ? '' : 'muted'} data-testid="mcp-sign-in-status">
        {status.signedIn
          ? t('mcp.signIn.signedIn', { server: status.authServer ?? t('mcp.signIn.unknownServer') })
          : t('mcp.signIn.notSignedIn')}
        {status.signedIn &&
          expires !== null &&
          ` · ${t(
            status.expiresAt !== null && status.expiresAt < Date.now()
              ? 'mcp.signIn.expired'
              : 'mcp.signIn.expires',
            { time: expires },
          )}`}
        {status.signedIn && status.refreshable && ` · ${t('mcp.signIn.renews')}`}
      </p>
      {service.oauthClientId !== null && (
        <p className="muted">{t('mcp.signIn.client', { id: service.oauthClientId })}</p>
      )}
      {busy === 'login' && (
        <p className="notice" role="status" data-testid="mcp-sign-in-waiting">
          {t('mcp.signIn.waiting')}{' '}
          {pageUrl !== null && (
            <a href={pageUrl} target="_blank" rel="noreferrer noopener">
              {t('mcp.signIn.openPage')}
            </a>
          )}
        </p>
      )}
      {message !== null && (
        <p className="muted" role="status">
          {message}
        </p>
      )}
      <div className="row-actions">
        <button
          type="button"
          className="button"
          data-testid="mcp-sign-in-button"
          disabled={busy !== null}
          onClick={() => void act('login')}
        >
          {busy === 'login'
            ? t('mcp.signIn.signingIn')
            : status.signedIn
              ? t('mcp.signIn.again')
              : t('mcp.signIn.signIn')}
        </button>
        {status.signedIn && (
          <button
            type="button"
            className="button ghost"
            data-testid="mcp-sign-out-button"
            disabled={busy !== null}
            onClick={() => void act('logout')}
          >
            {t('mcp.signIn.signOut')}
          </button>
        )}
      </div>
      <FieldErrorText error={error} testId="mcp-sign-in-error" />
    </section>
  );
}
