/**
 * The fields of a conversation's settings, also a model's defaults for them (the model editor):
 * instructions (none, own text or a saved prompt), the sampling parameters and the context policy,
 * with what an unset field falls back to.
 */
import type { ReactNode } from 'react';
import type { ConversationSettings } from '../../../shared/conversation-settings';
import { formatContextPolicy } from '../../../shared/conversation-settings';
import { useT } from '../../i18n/use-t';
import type { FieldErrors } from '../settings/form-controls';
import { Field, FieldErrorText } from '../settings/form-controls';
import { SamplingFields } from './sampling-fields';
import type { SettingsText } from './settings-form';

export function SettingsFields(props: {
  form: SettingsText;
  errors: FieldErrors;
  onChange<K extends keyof SettingsText>(field: K, value: SettingsText[K]): void;
  /** The saved prompts the instructions may name. */
  prompts: readonly { id: string; title: string }[];
  /** The saved prompt the settings name was deleted. */
  promptMissing?: boolean;
  /** What an unset field stands for (a model's defaults), shown as hints. */
  defaults?: ConversationSettings | undefined;
  parametersHint: string;
  /** Prefix of the `data-testid`s and radio names: `conv` (the dialog), `model-default`. */
  idPrefix?: string;
}): ReactNode {
  const t = useT();
  const { form, errors, onChange } = props;
  const id = props.idPrefix ?? 'conv';
  return (
    <div className="conversation-settings-form">
      <fieldset className="settings-fieldset">
        <legend>{t('convSettings.instructions')}</legend>
        <p className="field-hint">{t('convSettings.instructionsHelp')}</p>
        {props.defaults?.systemPrompt !== undefined && form.instructions === 'none' && (
          <p className="field-hint" data-testid={`${id}-instructions-model-default`}>
            {t('convSettings.instructionsModelDefault')}
          </p>
        )}
        <div className="radio-row" role="radiogroup">
          {(['none', 'text', 'prompt'] as const).map((kind) => (
            <label key={kind} className="inline">
              <input
                type="radio"
                name={`${id}-instructions`}
                data-testid={`${id}-instructions-kind-${kind}`}
                checked={form.instructions === kind}
                onChange={() => onChange('instructions', kind)}
              />
              <span>{t(`convSettings.instructions.${kind}`)}</span>
            </label>
          ))}
        </div>
        {props.promptMissing === true && (
          <p className="field-error" role="alert" data-testid={`${id}-prompt-missing`}>
            {t('convSettings.promptMissing')}
          </p>
        )}
        {form.instructions === 'text' && (
          <>
            <textarea
              className="conv-instructions-text"
              data-testid={`${id}-instructions-text`}
              aria-label={t('convSettings.instructions')}
              rows={6}
              value={form.text}
              onChange={(event) => onChange('text', event.target.value)}
            />
            <FieldErrorText error={errors.text} testId={`${id}-instructions-text-error`} />
          </>
        )}
        {form.instructions === 'prompt' &&
          (props.prompts.length === 0 ? (
            <p className="muted">{t('convSettings.noPrompts')}</p>
          ) : (
            <>
              <select
                data-testid={`${id}-instructions-prompt`}
                aria-label={t('convSettings.instructions.prompt')}
                value={form.promptId}
                onChange={(event) => onChange('promptId', event.target.value)}
              >
                <option value="">{t('convSettings.choosePrompt')}</option>
                {props.prompts.map((prompt) => (
                  <option key={prompt.id} value={prompt.id}>
                    {prompt.title}
                  </option>
                ))}
              </select>
              <FieldErrorText error={errors.promptId} testId={`${id}-instructions-prompt-error`} />
            </>
          ))}
      </fieldset>
      <fieldset className="settings-fieldset">
        <legend>{t('convSettings.parameters')}</legend>
        <p className="field-hint">{props.parametersHint}</p>
        <SamplingFields
          value={form}
          defaults={props.defaults}
          errors={errors}
          testIdPrefix={id}
          onChange={(field, text) => onChange(field, text)}
        />
      </fieldset>
      <fieldset className="settings-fieldset">
        <legend>{t('convSettings.context')}</legend>
        {props.defaults?.contextPolicy !== undefined && form.context === 'all' && (
          <p className="field-hint" data-testid={`${id}-context-model-default`}>
            {t('convSettings.contextModelDefault', {
              policy: formatContextPolicy(props.defaults.contextPolicy),
            })}
          </p>
        )}
        <div className="radio-column" role="radiogroup">
          {(['all', 'messages', 'tokens'] as const).map((kind) => (
            <label key={kind} className="inline">
              <input
                type="radio"
                name={`${id}-context`}
                data-testid={`${id}-context-${kind}`}
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
            testId={`${id}-context-count`}
            error={errors.count}
          >
            <input
              data-testid={`${id}-context-count`}
              inputMode="numeric"
              value={form.count}
              onChange={(event) => onChange('count', event.target.value)}
            />
          </Field>
        )}
        {form.context === 'tokens' && (
          <Field
            label="convSettings.context.budget"
            testId={`${id}-context-budget`}
            error={errors.budget}
          >
            <input
              data-testid={`${id}-context-budget`}
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
