/**
 * A new chat before its first message: a greeting, the model and what it will use, and up to four
 * starter prompts. The starters are the user's own prompt templates without variables (edited
 * in Settings → Prompts), else four built-in ones; a click puts one into the composer, to edit
 * or send.
 */
import type { ReactNode } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { StarterIcon } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { listPrompts, PROMPTS_KEY } from '../../data/library';
import { useQuery } from '../../data/use-query';

type Template = InvokeResponse<'prompts.list'>[number];

/** How many starters show. */
const STARTERS = 4;
const BUILT_IN = ['plot', 'search', 'summarise', 'explain'] as const;

interface Starter {
  key: string;
  title: string;
  text: string;
}

export function EmptyState(): ReactNode {
  const t = useT();
  const insert = useApp((state) => state.insertIntoComposer);
  const openSettings = useApp((state) => state.setSettingsOpen);
  // No templates to show is no error worth a banner: the built-in starters show.
  const prompts = useQuery(PROMPTS_KEY, listPrompts, { reportErrors: false });
  const templates: Template[] | null = prompts.data ?? (prompts.error ? [] : null);
  const own = (templates ?? [])
    .filter((template) => template.variables.length === 0 && template.body.trim() !== '')
    .slice(0, STARTERS)
    .map((template): Starter => ({ key: template.id, title: template.title, text: template.body }));
  const starters: Starter[] =
    own.length > 0
      ? own
      : BUILT_IN.map((key) => ({
          key,
          title: t(`starter.${key}.title`),
          text: t(`starter.${key}.text`),
        }));
  return (
    <section className="empty-chat" data-testid="empty-chat" aria-labelledby="empty-chat-title">
      <div className="empty-chat-mark" aria-hidden="true">
        <StarterIcon size={28} />
      </div>
      <h2 id="empty-chat-title" className="empty-chat-title">
        {t('empty.greeting')}
      </h2>
      <p className="empty-chat-note">{t('chat.empty')}</p>
      {templates !== null && (
        <ul className="starter-list" aria-label={t('empty.starters')}>
          {starters.map((starter) => (
            <li key={starter.key}>
              <button
                type="button"
                className="starter"
                data-testid="starter-prompt"
                onClick={() => insert(starter.text)}
              >
                <span className="starter-title">{starter.title}</span>
                <span className="starter-text">{starter.text}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="button ghost empty-chat-edit"
        data-testid="starter-edit"
        onClick={() => openSettings(true)}
      >
        {t(own.length > 0 ? 'empty.editStarters' : 'empty.ownStarters')}
      </button>
    </section>
  );
}
