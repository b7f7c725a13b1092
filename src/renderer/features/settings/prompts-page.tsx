/** 提示词: the personal prompt templates — list, add, edit, remove. */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { FieldErrors, SaveState } from './form-controls';
import { Field, SaveRow } from './form-controls';
import { checkRequired, errorMessage, fieldOfError } from './form-rules';
import { CrudList } from './crud-list';
import type { PromptTemplate } from '../../data/library';
import { deletePrompt, listPrompts, PROMPTS_KEY, savePrompt } from '../../data/library';
import { useQuery } from '../../data/use-query';
import { useFormErrors } from './use-form-errors';

/** The prompts page. */
export function PromptsPage(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const prompts = useQuery(PROMPTS_KEY, listPrompts);
  return (
    <CrudList<PromptTemplate, PromptTemplate | null>
      testId="settings-page-prompts"
      intro={t('set.prompts.intro')}
      empty={t('set.prompts.empty')}
      items={prompts.data}
      itemKey={(template) => template.id}
      renderItem={(template, row) => (
        <li data-testid="prompt-item">
          <span>
            <strong>{template.title}</strong>
            <br />
            <span className="muted">
              {[
                template.tags.join(', '),
                template.variables.length > 0
                  ? t('set.prompts.variables', { list: template.variables.join(', ') })
                  : '',
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </span>
          <button type="button" className="button ghost" onClick={() => row.edit(template)}>
            {t('form.edit')}
          </button>
          <button
            type="button"
            className="button ghost danger-text"
            onClick={() =>
              row.remove(template.title, async () => {
                if (bridge) await deletePrompt(bridge, template.id);
              })
            }
          >
            {t('form.remove')}
          </button>
        </li>
      )}
      add={{ label: t('set.prompts.new'), testId: 'prompt-new', target: null }}
      renderEditor={(template, done) => (
        <PromptEditor key={template?.id ?? 'new'} template={template} onDone={done} />
      )}
    />
  );
}

function PromptEditor(props: { template: PromptTemplate | null; onDone(): void }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const saved = props.template;
  const [title, setTitle] = useState(saved?.title ?? '');
  const [body, setBody] = useState(saved?.body ?? '');
  const [tags, setTags] = useState(saved?.tags.join(', ') ?? '');
  const { errors, setErrors, edited } = useFormErrors();
  const [state, setState] = useState<SaveState>('idle');
  const save = async (): Promise<void> => {
    const problems: FieldErrors = { title: checkRequired(title), body: checkRequired(body) };
    setErrors(problems);
    if (Object.values(problems).some(Boolean) || !bridge) return;
    const fields = {
      title,
      body,
      tags: tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    };
    setState('saving');
    try {
      await savePrompt(bridge, saved?.id ?? null, fields);
      setState('saved');
      props.onDone();
    } catch (error) {
      const message = errorMessage(error);
      const field = fieldOfError(message, { title: [], body: ['template'], tags: ['tag'] });
      if (field === null) setState({ failed: message });
      else {
        setErrors({ ...problems, [field]: message });
        setState('idle');
      }
    }
  };
  return (
    <div className="editor" data-testid="prompt-editor">
      <Field label="set.prompts.title" testId="prompt-title" error={errors.title}>
        <input
          data-testid="prompt-title"
          value={title}
          onChange={(e) => edited('title', setTitle)(e.target.value)}
        />
      </Field>
      <Field label="set.prompts.body" testId="prompt-body" error={errors.body}>
        <textarea
          data-testid="prompt-body"
          rows={6}
          value={body}
          onChange={(e) => edited('body', setBody)(e.target.value)}
        />
      </Field>
      <Field label="set.prompts.tags" testId="prompt-tags" error={errors.tags}>
        <input
          data-testid="prompt-tags"
          value={tags}
          onChange={(e) => edited('tags', setTags)(e.target.value)}
        />
      </Field>
      <SaveRow state={state} testId="prompt-save" onSave={() => void save()}>
        <button type="button" className="button ghost" onClick={props.onDone}>
          {t('form.cancel')}
        </button>
      </SaveRow>
    </div>
  );
}
