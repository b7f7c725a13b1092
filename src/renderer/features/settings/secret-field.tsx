/**
 * A settings group's key: the saved one only as a mask, a password field for a new one, and
 * "remove". The value goes to the host's secret store and never comes back in clear.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { MessageKey } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { SaveState } from './form-controls';
import { Field, SaveRow } from './form-controls';
import { errorMessage } from './form-rules';
import { setSettingsKey } from '../../data/settings';

/** The key of `group`. */
export function SecretField(props: {
  group: 'search' | 'sandbox' | 'images';
  label: MessageKey;
  masked: string | null;
}): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const testId = `settings-${props.group}-key`;
  return (
    <SecretInput
      testId={testId}
      stateTestId={`${testId}-masked`}
      label={props.label}
      hint="set.secret.hint"
      savedText={
        props.masked ? t('set.secret.saved', { mask: props.masked }) : t('set.secret.none')
      }
      placeholder={t('set.secret.placeholder')}
      autoComplete="off"
      saveLabel="set.secret.save"
      clearLabel="set.secret.clear"
      hasSaved={props.masked !== null && props.masked !== ''}
      canSave={(value) => value.trim() !== ''}
      save={async (value) => {
        if (bridge)
          await setSettingsKey(bridge, { key: props.group, apiKey: value?.trim() ?? null });
      }}
    />
  );
}

/**
 * A secret's field: what is saved (never the value), a password input for a new one, Save and
 * Remove. `save(null)` removes it. Shared by the settings groups' keys and the backup passphrase.
 */
export function SecretInput(props: {
  testId: string;
  stateTestId: string;
  label: MessageKey;
  hint: MessageKey;
  savedText: string;
  placeholder?: string;
  autoComplete: string;
  saveLabel: MessageKey;
  clearLabel: MessageKey;
  hasSaved: boolean;
  canSave: (value: string) => boolean;
  save: (value: string | null) => Promise<void>;
}): ReactNode {
  const t = useT();
  const [value, setValue] = useState('');
  const [state, setState] = useState<SaveState>('idle');
  const store = async (next: string | null): Promise<void> => {
    setState('saving');
    try {
      await props.save(next);
      setValue('');
      setState('saved');
    } catch (error) {
      setState({ failed: errorMessage(error) });
    }
  };
  return (
    <div className="secret-field">
      <Field label={props.label} hint={props.hint} testId={props.testId}>
        <span className="muted" data-testid={props.stateTestId}>
          {props.savedText}
        </span>
        <input
          type="password"
          autoComplete={props.autoComplete}
          data-testid={props.testId}
          {...(props.placeholder === undefined ? {} : { placeholder: props.placeholder })}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setState('idle');
          }}
        />
      </Field>
      <SaveRow
        state={state}
        testId={`${props.testId}-save`}
        label={props.saveLabel}
        disabled={!props.canSave(value)}
        onSave={() => void store(value)}
      >
        {props.hasSaved && (
          <button
            type="button"
            className="button ghost danger-text"
            data-testid={`${props.testId}-clear`}
            onClick={() => void store(null)}
          >
            {t(props.clearLabel)}
          </button>
        )}
      </SaveRow>
    </div>
  );
}
