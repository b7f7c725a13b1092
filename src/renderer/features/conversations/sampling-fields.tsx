/**
 * Temperature / top_p / max output tokens as three text fields (empty: the default, shown as the
 * placeholder), shared by the conversation settings dialog and the model editor.
 */
import type { ReactNode } from 'react';
import type { SamplingParameters } from '../../../shared/conversation-settings';
import { useT } from '../../i18n/use-t';
import type { FieldErrors } from '../settings/form-controls';
import { Field } from '../settings/form-controls';
import type { SamplingText } from './settings-form';

const FIELDS = [
  { name: 'temperature', label: 'convSettings.temperature', decimal: true },
  { name: 'topP', label: 'convSettings.topP', decimal: true },
  { name: 'maxOutputTokens', label: 'convSettings.maxTokens', decimal: false },
] as const;

export function SamplingFields(props: {
  value: SamplingText;
  /** The values an empty field stands for (the model's defaults); absent: the server's. */
  defaults?: SamplingParameters;
  errors: FieldErrors;
  /** `conv-temperature`, `model-default-temperature`, … */
  testIdPrefix: string;
  onChange(field: keyof SamplingText, text: string): void;
}): ReactNode {
  const t = useT();
  return (
    <div className="sampling-fields">
      {FIELDS.map((field) => {
        const fallback = props.defaults?.[field.name];
        const testId = `${props.testIdPrefix}-${field.name}`;
        return (
          <Field
            key={field.name}
            label={field.label}
            testId={testId}
            error={props.errors[field.name]}
          >
            <input
              data-testid={testId}
              inputMode={field.decimal ? 'decimal' : 'numeric'}
              value={props.value[field.name]}
              placeholder={
                fallback === undefined
                  ? t('convSettings.serverDefault')
                  : t('convSettings.modelDefault', { value: fallback })
              }
              onChange={(event) => props.onChange(field.name, event.target.value)}
            />
          </Field>
        );
      })}
    </div>
  );
}
