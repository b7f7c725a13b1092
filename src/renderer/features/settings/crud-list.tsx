/**
 * The one list of the settings pages that list things (models, prompts, skills, memories): the
 * page's intro, the items (each row drawn by the page, with edit / remove / run actions), the
 * "empty" line, the add button and the editor of the item being edited or added. Removing asks
 * first (`askRemove`); a failed action goes to the error banner. The list itself comes from
 * `useQuery`, and every write in the data modules invalidates it, so the page does not reload by
 * hand.
 */
import type { ReactNode } from 'react';
import { Fragment, useState } from 'react';
import { askRemove } from '../../components/confirm-dialog';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';

/** What a row may do. */
export interface RowActions<E> {
  /** Opens the editor on `target` (what the page's editor edits). */
  edit(target: E): void;
  /** Asks "remove `label`?", then runs `action`. */
  remove(label: string, action: () => Promise<unknown>): void;
  /** Runs `action`; a failure goes to the error banner. */
  run(action: () => Promise<unknown>): void;
}

export interface CrudListProps<T, E> {
  /** `data-testid` of the page. */
  testId: string;
  intro: string;
  /** Shown when the list is empty (none: nothing). */
  empty?: string;
  /** Shown instead of the page while the list loads (none: the page, without items). */
  loading?: string;
  /** The items, null while loading. */
  items: readonly T[] | null;
  itemKey(item: T): string;
  /** Rows before the items (inside the list). */
  before?: ReactNode;
  /** One row: an `<li>`. */
  renderItem(item: T, actions: RowActions<E>): ReactNode;
  /** The add button: its label, test id and what it opens the editor on. */
  add?: { label: string; testId?: string; target: E };
  /** The editor of `target`; `done` closes it. */
  renderEditor?(target: E, done: () => void): ReactNode;
}

/** A settings page that lists things (see the file comment). */
export function CrudList<T, E>(props: CrudListProps<T, E>): ReactNode {
  const t = useT();
  const showError = useApp((state) => state.showError);
  const [editing, setEditing] = useState<{ target: E } | null>(null);
  const run = (action: () => Promise<unknown>): void => {
    action().catch(showError);
  };
  const actions: RowActions<E> = {
    edit: (target) => setEditing({ target }),
    remove: (label, action) => {
      void askRemove(t, label).then((confirmed) => {
        if (confirmed) run(action);
      });
    },
    run,
  };
  if (props.items === null && props.loading !== undefined) {
    return <p className="muted">{props.loading}</p>;
  }
  const done = (): void => setEditing(null);
  return (
    <div className="settings-page" data-testid={props.testId}>
      <p className="muted">{props.intro}</p>
      {props.items?.length === 0 && props.empty !== undefined && (
        <p className="muted">{props.empty}</p>
      )}
      <ul className="settings-list">
        {props.before}
        {props.items?.map((item) => (
          <Fragment key={props.itemKey(item)}>{props.renderItem(item, actions)}</Fragment>
        ))}
      </ul>
      {props.renderEditor !== undefined && editing !== null
        ? props.renderEditor(editing.target, done)
        : props.add !== undefined && (
            <button
              type="button"
              className="button"
              data-testid={props.add.testId}
              onClick={() => props.add && setEditing({ target: props.add.target })}
            >
              ＋ {props.add.label}
            </button>
          )}
    </div>
  );
}
