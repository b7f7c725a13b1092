/**
 * Prompt templates from the user's library: pick one, fill its `{{variables}}`, insert the text
 * into the composer. A template without variables is inserted at once.
 */
import type { ReactNode } from 'react';
import { useCallback, useEffect, useState } from 'react';
import { fillPlaceholders } from '../../../shared/prompt-template-text';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { Popover } from '../../components/popover';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { PromptsIcon } from '../../components/icons';

type Template = InvokeResponse<'prompts.list'>[number];

/** The "Prompts" button and its list; `onInsert` gets the filled text. */
export function PromptPicker(props: { onInsert(text: string): void }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const [open, setOpen] = useState(false);
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [chosen, setChosen] = useState<Template | null>(null);
  useEffect(() => {
    if (!open || !bridge) return undefined;
    let current = true;
    bridge.invoke('prompts.list').then((list) => current && setTemplates(list), showError);
    return () => {
      current = false;
    };
  }, [open, bridge, showError]);
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
        <VariableForm template={chosen} onBack={() => setChosen(null)} onInsert={insert} />
      )}
    </Popover>
  );
}

function TemplateList(props: {
  templates: Template[] | null;
  onPick(template: Template): void;
}): ReactNode {
  const t = useT();
  const { templates } = props;
  return (
    <>
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
    </>
  );
}

function VariableForm(props: {
  template: Template;
  onBack(): void;
  onInsert(text: string): void;
}): ReactNode {
  const t = useT();
  const [values, setValues] = useState<Record<string, string>>({});
  const filled = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
  return (
    <div className="prompt-form">
      <div className="popover-title">{props.template.title}</div>
      {props.template.variables.map((name) => (
        <label key={name} className="prompt-variable">
          <span>{name}</span>
          <input
            data-testid="prompt-variable"
            data-name={name}
            value={values[name] ?? ''}
            onChange={(event) => setValues({ ...values, [name]: event.target.value })}
          />
        </label>
      ))}
      <pre className="prompt-preview" data-testid="prompt-preview">
        {fillPlaceholders(props.template.body, filled)}
      </pre>
      <div className="popover-actions">
        <button type="button" className="button ghost" onClick={props.onBack}>
          {t('prompts.back')}
        </button>
        <button
          type="button"
          className="button primary"
          data-testid="prompt-insert"
          onClick={() => props.onInsert(fillPlaceholders(props.template.body, filled))}
        >
          {t('prompts.insert')}
        </button>
      </div>
    </div>
  );
}
