/**
 * The "or ask" half of the same-origin rule of a local service's sign-in: when its last sign-in
 * was refused for going to another origin of the service's local host (another program there,
 * e.g. a local Keycloak beside a local MCP server), the card names both origins and offers
 * "Allow sign-in through <origin>", which stores the trust for this service only and tries again
 * (a test, which signs in). The origins trusted so far are listed, each with "Stop trusting".
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { McpServiceView } from '../../data/mcp';
import { testMcpService, trustMcpSignInOrigin } from '../../data/mcp';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { FieldErrorText } from '../settings/form-controls';
import { errorMessage } from '../settings/form-rules';

export function McpSignInTrust(props: { service: McpServiceView }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const { service } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refused = service.refusedSignInOrigin;
  const trusted = service.trustedSignInOrigins;
  if (service.transport === 'stdio' || (refused === null && trusted.length === 0)) return null;
  const own = originOf(service.url);
  const act = async (origin: string, trust: boolean): Promise<void> => {
    if (!bridge) return;
    setBusy(true);
    setError(null);
    try {
      await trustMcpSignInOrigin(bridge, { id: service.id, origin, trusted: trust });
      // Trusted now: the sign-in runs again (a test signs in when the server asks).
      if (trust) await testMcpService(bridge, service.id);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="mcp-sign-in-trust" data-testid="mcp-sign-in-trust">
      {refused !== null && (
        <div className="notice" role="alert" data-testid="mcp-sign-in-refused">
          <p>{t('mcp.trust.refused', { name: service.name, origin: refused, own })}</p>
          <p className="muted">{t('mcp.trust.explain', { origin: refused })}</p>
          <div className="row-actions">
            <button
              type="button"
              className="button primary"
              data-testid="mcp-trust-origin"
              disabled={busy}
              onClick={() => void act(refused, true)}
            >
              {busy ? t('mcp.trust.allowing') : t('mcp.trust.allow', { origin: refused })}
            </button>
          </div>
        </div>
      )}
      {trusted.length > 0 && (
        <ul className="settings-list" data-testid="mcp-trusted-origins">
          {trusted.map((origin) => (
            <li key={origin} data-testid="mcp-trusted-origin" data-origin={origin}>
              <span className="muted">{t('mcp.trust.trusted', { origin })}</span>
              <button
                type="button"
                className="button ghost danger-text"
                data-testid="mcp-untrust-origin"
                disabled={busy}
                onClick={() => void act(origin, false)}
              >
                {t('mcp.trust.stop')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <FieldErrorText error={error} testId="mcp-trust-error" />
    </section>
  );
}

function originOf(url: string | null): string {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return url ?? '';
  }
}
