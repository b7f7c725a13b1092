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
import { SaveRow } from '../settings/form-controls';
import { errorMessage } from '../settings/form-rules';
import { SettingsFields } from './settings-fields';
import type { SettingsText } from './settings-form';
import { parseSettings, settingsText } from './settings-form';
import { conversationSettings, setConversationSettings } from '../../data/conversations';

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
    conversationSettings(bridge, props.conversationId).then((loaded) => {
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
      const saved = await setConversationSettings(bridge, {
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
          <SettingsFields
            form={form}
            errors={errors}
            onChange={change}
            prompts={view.prompts}
            promptMissing={view.promptMissing}
            defaults={view.modelDefaults}
            parametersHint={
              view.modelLabel === null
                ? t('convSettings.parametersHelpNoModel')
                : t('convSettings.parametersHelp', { model: view.modelLabel })
            }
          />
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
