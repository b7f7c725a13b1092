/**
 * A resource that moved its sign-in to another authorization server than the one the service is
 * bound to (SEP-2352): nothing was sent there — not the client secret the user entered, not a
 * refresh token, not a registration — and the card names both servers and asks. "Sign in at
 * <server>" binds the service to it (the old sign-in is dropped) and tests again, which signs in.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { McpServiceView } from '../../data/mcp';
import { approveMcpAuthServer, testMcpService } from '../../data/mcp';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { FieldErrorText } from '../settings/form-controls';
import { errorMessage } from '../settings/form-rules';

export function McpSignInMove(props: { service: McpServiceView }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const { service } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const moved = service.movedSignIn;
  if (moved === null) return null;
  const approve = async (): Promise<void> => {
    if (!bridge) return;
    setBusy(true);
    setError(null);
    try {
      await approveMcpAuthServer(bridge, { id: service.id, issuer: moved.to });
      // Approved: the sign-in runs again (a test signs in when the server asks).
      await testMcpService(bridge, service.id);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="mcp-sign-in-trust" data-testid="mcp-sign-in-move">
      <div className="notice" role="alert">
        <p>{t('mcp.move.moved', { name: service.name, from: moved.from, to: moved.to })}</p>
        <p className="muted">{t('mcp.move.explain', { to: moved.to })}</p>
        <div className="row-actions">
          <button
            type="button"
            className="button primary"
            data-testid="mcp-approve-auth-server"
            disabled={busy}
            onClick={() => void approve()}
          >
            {busy ? t('mcp.trust.allowing') : t('mcp.move.approve', { to: moved.to })}
          </button>
        </div>
      </div>
      <FieldErrorText error={error} testId="mcp-move-error" />
    </section>
  );
}
