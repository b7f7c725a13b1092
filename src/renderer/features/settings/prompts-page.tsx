/** 提示词: the personal prompt templates — list, add, edit, remove. */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { FieldErrors, SaveState } from './form-controls';
import { Field, SaveRow } from './form-controls';
import { checkRequired, errorMessage, fieldOfError } from './form-rules';
import { useLoaded } from './use-loaded';
import { useFormErrors } from './use-form-errors';
import { askRemove } from '../../components/confirm-dialog';

type Template = InvokeResponse<'prompts.create'>;

/** The prompts page. */
export function PromptsPage(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const prompts = useLoaded((bridgeNow) => bridgeNow.invoke('prompts.list'));
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const remove = async (template: Template): Promise<void> => {
    if (!(await askRemove(t, template.title))) return;
    try {
      await bridge?.invoke('prompts.delete', { id: template.id });
      await prompts.reload();
    } catch (error) {
      showError(error);
    }
  };
  const done = (): void => {
    setEditing(null);
    void prompts.reload();
  };
  return (
    <div className="settings-page" data-testid="settings-page-prompts">
      <p className="muted">{t('set.prompts.intro')}</p>
      {prompts.data?.length === 0 && <p className="muted">{t('set.prompts.empty')}</p>}
      <ul className="settings-list">
        {prompts.data?.map((template) => (
          <li key={template.id} data-testid="prompt-item">
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
            <button type="button" className="button ghost" onClick={() => setEditing(template)}>
              {t('form.edit')}
            </button>
            <button
              type="button"
              className="button ghost danger-text"
              onClick={() => void remove(template)}
            >
              {t('form.remove')}
            </button>
          </li>
        ))}
      </ul>
      {editing === null ? (
        <button
          type="button"
          className="button"
          data-testid="prompt-new"
          onClick={() => setEditing('new')}
        >
          ＋ {t('set.prompts.new')}
        </button>
      ) : (
        <PromptEditor
          key={editing === 'new' ? 'new' : editing.id}
          template={editing === 'new' ? null : editing}
          onDone={done}
        />
      )}
    </div>
  );
}

function PromptEditor(props: { template: Template | null; onDone(): void }): ReactNode {
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
      if (saved) await bridge.invoke('prompts.update', { id: saved.id, ...fields });
      else await bridge.invoke('prompts.create', fields);
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
