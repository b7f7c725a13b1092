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
import { CrudList } from './crud-list';
import type { MemoryChange } from '../../data/library';
import { changeMemory, listMemories, MEMORIES_KEY } from '../../data/library';
import { useQuery } from '../../data/use-query';
import { askRemove } from '../../components/confirm-dialog';

/** The memory page. */
export function MemoriesPage(): ReactNode {
  const t = useT();
  const memories = useQuery(MEMORIES_KEY, listMemories);
  return (
    <CrudList<Memory, never>
      testId="settings-page-memory"
      intro={t('set.memories.intro')}
      empty={t('set.memories.empty')}
      items={memories.data}
      itemKey={(memory) => memory.id}
      renderItem={(memory) => <MemoryItem memory={memory} />}
    />
  );
}

/** One memory with its actions (exported for static rendering in tests). */
export function MemoryItem(props: { memory: Memory }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const { memory } = props;
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (change: MemoryChange): Promise<void> => {
    if (!bridge) return;
    try {
      await changeMemory(bridge, memory.id, change);
      setDraft(null);
      setError(null);
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
            onClick={() => void run({ kind: 'confirm' })}
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
              onClick={() => void run({ kind: 'text', text: draft })}
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
            onClick={() => void run({ kind: 'status', status: archived ? 'ACTIVE' : 'ARCHIVED' })}
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
              if (confirmed) void run({ kind: 'delete' });
            });
          }}
        >
          {t('form.remove')}
        </button>
      </div>
    </li>
  );
}
