/**
 * A prompt template's `{{variables}}` as fields, a preview of the filled text, Back and Insert.
 * Values may be long (a paragraph to summarise), so each is a text area that grows with its
 * content up to a few lines and then scrolls (CSS `field-sizing: content`; browsers without it
 * keep two rows and the resize handle). Enter breaks the line there; Ctrl/⌘+Enter inserts.
 * Back and Insert sit in a footer that stays in view while the fields scroll (the popover's
 * height is bounded by the window: at 720×480 it used to cut the Insert button off).
 */
import type { KeyboardEvent, ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { fillPlaceholders } from '../../../shared/prompt-template-text';
import { useT } from '../../i18n/use-t';
import type { PromptTemplate } from './slash-query';

export type { PromptTemplate } from './slash-query';

/** The filled text of `template` with the values given so far (empty ones stay placeholders). */
function filledText(template: PromptTemplate, values: Record<string, string>): string {
  const given = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
  return fillPlaceholders(template.body, given);
}

/** The form (`data-testid="prompt-form"`); the first field is focused when it opens. */
export function PromptVariableForm(props: {
  template: PromptTemplate;
  onBack(): void;
  onInsert(text: string): void;
  /** Esc in the form (the "/" palette closes it; the popover has its own Esc). */
  onEscape?: () => void;
}): ReactNode {
  const t = useT();
  const [values, setValues] = useState<Record<string, string>>({});
  const first = useRef<HTMLTextAreaElement>(null);
  useEffect(() => first.current?.focus(), []);
  const insert = (): void => props.onInsert(filledText(props.template, values));
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    if (!(event.ctrlKey || event.metaKey)) return;
    event.preventDefault();
    insert();
  };
  // A group, not a form element: it sits inside the composer's form, and forms do not nest.
  return (
    <div
      className="prompt-form"
      data-testid="prompt-form"
      role="group"
      aria-label={props.template.title}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || props.onEscape === undefined) return;
        event.preventDefault();
        props.onEscape();
      }}
    >
      <div className="popover-body prompt-form-fields">
        <div className="popover-title">{props.template.title}</div>
        {props.template.variables.map((name, index) => (
          <label key={name} className="prompt-variable">
            <span>{name}</span>
            <textarea
              ref={index === 0 ? first : undefined}
              rows={1}
              data-testid="prompt-variable"
              data-name={name}
              value={values[name] ?? ''}
              onChange={(event) => setValues({ ...values, [name]: event.target.value })}
              onKeyDown={onKeyDown}
            />
          </label>
        ))}
        <pre className="prompt-preview" data-testid="prompt-preview">
          {filledText(props.template, values)}
        </pre>
      </div>
      <div className="popover-footer" data-testid="prompt-form-footer">
        <button type="button" className="button ghost" onClick={props.onBack}>
          {t('prompts.back')}
        </button>
        <button
          type="button"
          className="button primary"
          data-testid="prompt-insert"
          title={t('prompts.insertHint')}
          onClick={insert}
        >
          {t('prompts.insert')}
        </button>
      </div>
    </div>
  );
}
