/**
 * The conversation settings dialog, opened from the chat header: the conversation's instructions
 * (none, its own text or a saved prompt), temperature / top_p / max output tokens (empty: the
 * model's default, shown as the placeholder), which earlier messages each question sends, and
 * its info (created, messages, answers, models used, token totals from the turn records).
 * A modal dialog (`use-modal-dialog.ts`); saving replaces the settings as a whole.
 */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { ConversationSettingsView } from '../../../shared/ipc/conversation-settings-methods';
import { ModalDialog } from '../../components/modal-dialog';
import { ChatSettingsIcon } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { FieldErrors, SaveState } from '../settings/form-controls';
import { Field, FieldErrorText, SaveRow } from '../settings/form-controls';
import { errorMessage } from '../settings/form-rules';
import { SamplingFields } from './sampling-fields';
import type { SettingsText } from './settings-form';
import { parseSettings, settingsText } from './settings-form';

/** The header button that opens the dialog for the open conversation. */
export function ConversationSettingsButton(props: { conversationId: string }): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="icon-button"
        data-testid="conversation-settings-open"
        aria-label={t('convSettings.open')}
        title={t('convSettings.openHelp')}
        onClick={() => setOpen(true)}
      >
        <ChatSettingsIcon />
      </button>
      {open && (
        <ConversationSettingsDialog
          conversationId={props.conversationId}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

export function ConversationSettingsDialog(props: {
  conversationId: string;
  onClose(): void;
}): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const [view, setView] = useState<ConversationSettingsView | null>(null);
  const [form, setForm] = useState<SettingsText | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [state, setState] = useState<SaveState>('idle');
  useEffect(() => {
    if (!bridge) return undefined;
    let current = true;
    bridge.invoke('conversations.settings', { id: props.conversationId }).then((loaded) => {
      if (!current) return;
      setView(loaded);
      setForm(settingsText(loaded.settings));
    }, showError);
    return () => {
      current = false;
    };
  }, [bridge, props.conversationId, showError]);
  const change = <K extends keyof SettingsText>(field: K, value: SettingsText[K]): void => {
    setForm((previous) => (previous === null ? previous : { ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: null }));
    setState('idle');
  };
  const save = async (reset = false): Promise<void> => {
    if (!bridge || form === null) return;
    const parsed = reset ? ({ ok: true, value: {} } as const) : parseSettings(form);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setState('saving');
    try {
      const saved = await bridge.invoke('conversations.setSettings', {
        id: props.conversationId,
        settings: parsed.value,
      });
      setView(saved);
      setForm(settingsText(saved.settings));
      setErrors({});
      setState('saved');
    } catch (error) {
      setState({ failed: errorMessage(error) });
    }
  };
  return (
    <ModalDialog
      title={t('convSettings.title')}
      closeLabel={t('convSettings.close')}
      onClose={props.onClose}
      className="dialog-card conversation-settings"
      testId="conversation-settings"
      closeTestId="conversation-settings-close"
    >
      {view === null || form === null ? (
        <p className="muted">{t('convSettings.loading')}</p>
      ) : (
        <>
          <SettingsForm view={view} form={form} errors={errors} onChange={change} />
          <SaveRow
            state={state}
            testId="conv-settings-save"
            label="convSettings.save"
            onSave={() => void save()}
          >
            <button
              type="button"
              className="button ghost"
              data-testid="conv-settings-reset"
              onClick={() => void save(true)}
            >
              {t('convSettings.reset')}
            </button>
          </SaveRow>
          <ConversationInfo view={view} />
        </>
      )}
    </ModalDialog>
  );
}

function SettingsForm(props: {
  view: ConversationSettingsView;
  form: SettingsText;
  errors: FieldErrors;
  onChange<K extends keyof SettingsText>(field: K, value: SettingsText[K]): void;
}): ReactNode {
  const t = useT();
  const { view, form, errors, onChange } = props;
  return (
    <div className="conversation-settings-form">
      <fieldset className="settings-fieldset">
        <legend>{t('convSettings.instructions')}</legend>
        <p className="field-hint">{t('convSettings.instructionsHelp')}</p>
        <div className="radio-row" role="radiogroup">
          {(['none', 'text', 'prompt'] as const).map((kind) => (
            <label key={kind} className="inline">
              <input
                type="radio"
                name="conv-instructions"
                data-testid={`conv-instructions-kind-${kind}`}
                checked={form.instructions === kind}
                onChange={() => onChange('instructions', kind)}
              />
              <span>{t(`convSettings.instructions.${kind}`)}</span>
            </label>
          ))}
        </div>
        {view.promptMissing && (
          <p className="field-error" role="alert" data-testid="conv-prompt-missing">
            {t('convSettings.promptMissing')}
          </p>
        )}
        {form.instructions === 'text' && (
          <>
            <textarea
              className="conv-instructions-text"
              data-testid="conv-instructions-text"
              aria-label={t('convSettings.instructions')}
              rows={6}
              value={form.text}
              onChange={(event) => onChange('text', event.target.value)}
            />
            <FieldErrorText error={errors.text} testId="conv-instructions-text-error" />
          </>
        )}
        {form.instructions === 'prompt' &&
          (view.prompts.length === 0 ? (
            <p className="muted">{t('convSettings.noPrompts')}</p>
          ) : (
            <>
              <select
                data-testid="conv-instructions-prompt"
                aria-label={t('convSettings.instructions.prompt')}
                value={form.promptId}
                onChange={(event) => onChange('promptId', event.target.value)}
              >
                <option value="">{t('convSettings.choosePrompt')}</option>
                {view.prompts.map((prompt) => (
                  <option key={prompt.id} value={prompt.id}>
                    {prompt.title}
                  </option>
                ))}
              </select>
              <FieldErrorText error={errors.promptId} testId="conv-instructions-prompt-error" />
            </>
          ))}
      </fieldset>
      <fieldset className="settings-fieldset">
        <legend>{t('convSettings.parameters')}</legend>
        <p className="field-hint">
          {view.modelLabel === null
            ? t('convSettings.parametersHelpNoModel')
            : t('convSettings.parametersHelp', { model: view.modelLabel })}
        </p>
        <SamplingFields
          value={form}
          defaults={view.modelDefaults}
          errors={errors}
          testIdPrefix="conv"
          onChange={(field, text) => onChange(field, text)}
        />
      </fieldset>
      <fieldset className="settings-fieldset">
        <legend>{t('convSettings.context')}</legend>
        <div className="radio-column" role="radiogroup">
          {(['all', 'messages', 'tokens'] as const).map((kind) => (
            <label key={kind} className="inline">
              <input
                type="radio"
                name="conv-context"
                data-testid={`conv-context-${kind}`}
                checked={form.context === kind}
                onChange={() => onChange('context', kind)}
              />
              <span>{t(`convSettings.context.${kind}`)}</span>
            </label>
          ))}
        </div>
        {form.context === 'messages' && (
          <Field
            label="convSettings.context.count"
            testId="conv-context-count"
            error={errors.count}
          >
            <input
              data-testid="conv-context-count"
              inputMode="numeric"
              value={form.count}
              onChange={(event) => onChange('count', event.target.value)}
            />
          </Field>
        )}
        {form.context === 'tokens' && (
          <Field
            label="convSettings.context.budget"
            testId="conv-context-budget"
            error={errors.budget}
          >
            <input
              data-testid="conv-context-budget"
              inputMode="numeric"
              value={form.budget}
              onChange={(event) => onChange('budget', event.target.value)}
            />
          </Field>
        )}
      </fieldset>
    </div>
  );
}

function ConversationInfo(props: { view: ConversationSettingsView }): ReactNode {
  const t = useT();
  const { info } = props.view;
  return (
    <section className="conversation-info" data-testid="conversation-info">
      <h2>{t('convSettings.info')}</h2>
      <dl>
        <dt>{t('convSettings.info.created')}</dt>
        <dd data-testid="conv-info-created">{new Date(info.createdAt).toLocaleString()}</dd>
        <dt>{t('convSettings.info.messages')}</dt>
        <dd data-testid="conv-info-messages">{info.messages}</dd>
        <dt>{t('convSettings.info.turns')}</dt>
        <dd data-testid="conv-info-turns">{info.turns}</dd>
        <dt>{t('convSettings.info.models')}</dt>
        <dd data-testid="conv-info-models">
          {info.models.length === 0 ? t('convSettings.info.none') : info.models.join(', ')}
        </dd>
        <dt>{t('convSettings.info.tokens')}</dt>
        <dd data-testid="conv-info-tokens">
          {t('convSettings.info.tokensValue', {
            input: info.inputTokens.toLocaleString(),
            output: info.outputTokens.toLocaleString(),
          })}
          {info.turnsWithoutUsage > 0 && (
            <span className="muted">
              {' '}
              ({t('convSettings.info.unreported', { count: info.turnsWithoutUsage })})
            </span>
          )}
        </dd>
      </dl>
    </section>
  );
}
