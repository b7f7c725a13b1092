/**
 * One settings block (web search, code sandbox, image generation, web fetching): its fields,
 * checked locally with messages in the user's language, saved with `settings.set`; a refusal from
 * the host is shown under the field it names. The block's key has its own masked field.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { FieldErrors, SaveState } from './form-controls';
import { Field, SaveRow, Switch } from './form-controls';
import { errorMessage, fieldOfError } from './form-rules';
import type { Draft, FieldSpec, GroupSpec, SettingsView } from './group-specs';
import { checkDraft, draftOf, patchOf } from './group-specs';
import { SecretField } from './secret-field';
import { setSettings } from '../../data/settings';

/** The form of one group over the saved settings. */
export function GroupForm(props: {
  spec: GroupSpec;
  view: SettingsView;
  children?: ReactNode;
}): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const { spec } = props;
  const [draft, setDraft] = useState<Draft>(() => draftOf(spec, props.view));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [state, setState] = useState<SaveState>('idle');
  const change = (name: string, value: string | boolean): void => {
    setDraft({ ...draft, [name]: value });
    setErrors({ ...errors, [name]: null });
    setState('idle');
  };
  const save = async (): Promise<void> => {
    const problems = checkDraft(spec, draft);
    setErrors(problems);
    if (Object.values(problems).some(Boolean) || !bridge) return;
    setState('saving');
    try {
      await setSettings(bridge, patchOf(spec, draft));
      setState('saved');
    } catch (error) {
      const message = errorMessage(error);
      const aliases = Object.fromEntries(spec.fields.map((field) => [field.name, []]));
      const field = fieldOfError(message, aliases);
      if (field === null) setState({ failed: message });
      else {
        setErrors({ ...problems, [field]: message });
        setState('idle');
      }
    }
  };
  return (
    <section className="settings-block" data-testid={`settings-group-${spec.key}`}>
      <h3>{t(spec.title)}</h3>
      {props.children}
      {spec.fields.map((field) => (
        <FieldControl
          key={field.name}
          field={field}
          group={spec.key}
          value={draft[field.name]}
          error={errors[field.name]}
          onChange={(value) => change(field.name, value)}
        />
      ))}
      <SaveRow state={state} testId={`settings-${spec.key}-save`} onSave={() => void save()} />
      {spec.secret && (
        <SecretField
          group={spec.key as 'search' | 'sandbox' | 'images'}
          label={spec.secret}
          masked={(props.view[spec.key] as { apiKeyMasked?: string | null }).apiKeyMasked ?? null}
        />
      )}
    </section>
  );
}

function FieldControl(props: {
  field: FieldSpec;
  group: string;
  value: string | boolean | undefined;
  error: FieldErrors[string];
  onChange(value: string | boolean): void;
}): ReactNode {
  const t = useT();
  const { field, value } = props;
  const testId = `settings-${props.group}-${field.name}`;
  if (field.kind === 'switch') {
    return (
      <Switch
        checked={value === true}
        label={t(field.label)}
        testId={testId}
        onChange={(checked) => props.onChange(checked)}
      />
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <Field
      label={field.label}
      hint={field.kind === 'text' ? (field.hint ?? null) : null}
      error={props.error}
      testId={testId}
    >
      {field.kind === 'select' ? (
        <select
          data-testid={testId}
          value={text}
          onChange={(event) => props.onChange(event.target.value)}
        >
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {t(option.label)}
            </option>
          ))}
        </select>
      ) : (
        <input
          data-testid={testId}
          inputMode={field.kind === 'integer' ? 'numeric' : undefined}
          placeholder={field.kind === 'text' ? field.placeholder : undefined}
          aria-invalid={props.error ? true : undefined}
          value={text}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
