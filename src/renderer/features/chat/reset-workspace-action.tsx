/**
 * Under a python_execute call that failed because no save of the conversation's /workspace can
 * be read (src/shared/sandbox-workspace.ts): the user's way out, "Start with an empty workspace",
 * asked to confirm first. The host's `sandbox.resetWorkspace` does it (the same service as
 * `aivory sandbox reset-workspace`); the sandbox refuses when a save can be read, and that
 * refusal shows as an error like any other.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { askConfirm } from '../../components/confirm-dialog';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { resetWorkspace } from '../../data/conversations';

export function ResetWorkspaceAction(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const conversationId = useApp((state) => state.activeId);
  const showError = useApp((state) => state.showError);
  const [state, setState] = useState<'idle' | 'working' | { keptAs: string[] }>('idle');
  if (!bridge || conversationId === null) return null;
  const reset = async (): Promise<void> => {
    const confirmed = await askConfirm({
      title: t('workspaceReset.title'),
      message: t('workspaceReset.question'),
      confirmLabel: t('workspaceReset.confirm'),
      danger: true,
    });
    if (!confirmed) return;
    setState('working');
    try {
      const outcome = await resetWorkspace(bridge, conversationId);
      setState({ keptAs: outcome.keptAs });
    } catch (error) {
      setState('idle');
      showError(error);
    }
  };
  if (typeof state === 'object') {
    return (
      <p className="cell-reset muted" role="status" data-testid="workspace-reset-done">
        {t('workspaceReset.done', { where: state.keptAs.join(', ') || '—' })}
      </p>
    );
  }
  return (
    <div className="cell-reset">
      <button
        type="button"
        className="button"
        data-testid="workspace-reset"
        disabled={state === 'working'}
        onClick={() => void reset()}
      >
        {t('workspaceReset.button')}
      </button>
    </div>
  );
}
