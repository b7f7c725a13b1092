/**
 * Prompt templates from the user's library: pick one, fill its `{{variables}}`, insert the text
 * into the composer. A template without variables is inserted at once. The same templates open
 * from the box itself by typing "/" (`prompt-palette.tsx`).
 */
import type { ReactNode } from 'react';
import { useCallback, useState } from 'react';
import { Popover } from '../../components/popover';
import { useT } from '../../i18n/use-t';
import { PromptsIcon } from '../../components/icons';
import type { PromptTemplate } from './prompt-variable-form';
import { PromptVariableForm } from './prompt-variable-form';
import { listPrompts, PROMPTS_KEY } from '../../data/library';
import { useQuery } from '../../data/use-query';

/** The library's templates, read each time `open` turns true; null while they load. */
export function usePromptTemplates(open: boolean): PromptTemplate[] | null {
  return useQuery(PROMPTS_KEY, listPrompts, { enabled: open, reportErrors: open }).data;
}

/** The "Prompts" button and its list; `onInsert` gets the filled text. */
export function PromptPicker(props: { onInsert(text: string): void }): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  const templates = usePromptTemplates(open);
  const [chosen, setChosen] = useState<PromptTemplate | null>(null);
  const onOpenChange = useCallback((next: boolean) => {
    setOpen(next);
    setChosen(null);
  }, []);
  const insert = (text: string): void => {
    props.onInsert(text);
    onOpenChange(false);
  };
  return (
    <Popover
      label={t('composer.prompts')}
      icon={<PromptsIcon />}
      testId="prompt-picker-open"
      className="popover-framed"
      open={open}
      onOpenChange={onOpenChange}
    >
      {chosen === null ? (
        <TemplateList
          templates={templates}
          onPick={(template) =>
            template.variables.length === 0 ? insert(template.body) : setChosen(template)
          }
        />
      ) : (
        <PromptVariableForm template={chosen} onBack={() => setChosen(null)} onInsert={insert} />
      )}
    </Popover>
  );
}

function TemplateList(props: {
  templates: PromptTemplate[] | null;
  onPick(template: PromptTemplate): void;
}): ReactNode {
  const t = useT();
  const { templates } = props;
  return (
    <div className="popover-body">
      <div className="popover-title">{t('prompts.title')}</div>
      {templates === null && <p className="popover-hint">{t('tools.loading')}</p>}
      {templates?.length === 0 && <p className="popover-hint">{t('prompts.empty')}</p>}
      <ul className="prompt-list">
        {(templates ?? []).map((template) => (
          <li key={template.id}>
            <button
              type="button"
              className="prompt-item"
              data-testid="prompt-item"
              title={template.body}
              onClick={() => props.onPick(template)}
            >
              {template.title}
            </button>
          </li>
        ))}
      </ul>
      <p className="popover-hint">{t('prompts.slashHint')}</p>
    </div>
  );
}
