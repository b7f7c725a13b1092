/**
 * 记忆: every saved memory, newest first — edit the text, archive / restore, delete. A memory saved
 * in a turn that had read untrusted content waits as pending, with what tainted that turn, until
 * the user confirms it (only then does it reach system prompts) or removes it.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { Memory } from '../../../shared/dto';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { FieldErrorText } from './form-controls';
import { errorMessage } from './form-rules';
import type { BridgeTask } from './use-loaded';
import { useLoaded } from './use-loaded';
import { askRemove } from '../../components/confirm-dialog';

/** The memory page. */
export function MemoriesPage(): ReactNode {
  const t = useT();
  const memories = useLoaded((bridge) => bridge.invoke('memories.list'));
  return (
    <div className="settings-page" data-testid="settings-page-memory">
      <p className="muted">{t('set.memories.intro')}</p>
      {memories.data?.length === 0 && <p className="muted">{t('set.memories.empty')}</p>}
      <ul className="settings-list">
        {memories.data?.map((memory) => (
          <MemoryItem key={memory.id} memory={memory} onChanged={() => void memories.reload()} />
        ))}
      </ul>
    </div>
  );
}

/** One memory with its actions (exported for static rendering in tests). */
export function MemoryItem(props: { memory: Memory; onChanged(): void }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const { memory } = props;
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (task: BridgeTask): Promise<void> => {
    try {
      await task();
      setDraft(null);
      setError(null);
      props.onChanged();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const archived = memory.status === 'ARCHIVED';
  const pending = memory.status === 'PENDING';
  return (
    <li data-testid="memory-item" data-status={memory.status} className="stacked">
      {draft === null ? (
        <span className={archived ? 'muted' : undefined}>{memory.memoryText}</span>
      ) : (
        <textarea
          data-testid="memory-text"
          rows={3}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
      )}
      {pending && (
        <p className="notice" data-testid="memory-origin">
          {t('set.memories.pendingOrigin', { reason: memory.origin?.reason ?? '—' })}
        </p>
      )}
      <FieldErrorText error={error} testId="memory-error" />
      <div className="row-actions">
        <span className={pending ? 'badge warn' : 'badge'}>
          {t(
            pending
              ? 'set.memories.pending'
              : archived
                ? 'set.memories.archived'
                : 'set.memories.active',
          )}
        </span>
        {pending && (
          <button
            type="button"
            className="button primary"
            data-testid="memory-confirm"
            onClick={() => void run(() => bridge?.invoke('memories.confirm', { id: memory.id }))}
          >
            {t('set.memories.confirm')}
          </button>
        )}
        {draft === null ? (
          <button
            type="button"
            className="button ghost"
            onClick={() => setDraft(memory.memoryText)}
          >
            {t('form.edit')}
          </button>
        ) : (
          <>
            <button
              type="button"
              className="button primary"
              data-testid="memory-save"
              onClick={() =>
                void run(() => bridge?.invoke('memories.update', { id: memory.id, text: draft }))
              }
            >
              {t('form.save')}
            </button>
            <button type="button" className="button ghost" onClick={() => setDraft(null)}>
              {t('form.cancel')}
            </button>
          </>
        )}
        {!pending && (
          <button
            type="button"
            className="button ghost"
            data-testid="memory-archive"
            onClick={() =>
              void run(() =>
                bridge?.invoke('memories.setStatus', {
                  id: memory.id,
                  status: archived ? 'ACTIVE' : 'ARCHIVED',
                }),
              )
            }
          >
            {t(archived ? 'set.memories.restore' : 'set.memories.archive')}
          </button>
        )}
        <button
          type="button"
          className="button ghost danger-text"
          data-testid="memory-delete"
          onClick={() => {
            void askRemove(t, memory.memoryText.slice(0, 40)).then((confirmed) => {
              if (confirmed) void run(() => bridge?.invoke('memories.delete', { id: memory.id }));
            });
          }}
        >
          {t('form.remove')}
        </button>
      </div>
    </li>
  );
}
