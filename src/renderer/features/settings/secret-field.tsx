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
  const [value, setValue] = useState('');
  const [state, setState] = useState<SaveState>('idle');
  const store = async (apiKey: string | null): Promise<void> => {
    if (!bridge) return;
    setState('saving');
    try {
      await setSettingsKey(bridge, { key: props.group, apiKey });
      setValue('');
      setState('saved');
    } catch (error) {
      setState({ failed: errorMessage(error) });
    }
  };
  const testId = `settings-${props.group}-key`;
  return (
    <div className="secret-field">
      <Field label={props.label} hint="set.secret.hint" testId={testId}>
        <span className="muted" data-testid={`${testId}-masked`}>
          {props.masked ? t('set.secret.saved', { mask: props.masked }) : t('set.secret.none')}
        </span>
        <input
          type="password"
          autoComplete="off"
          data-testid={testId}
          placeholder={t('set.secret.placeholder')}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setState('idle');
          }}
        />
      </Field>
      <SaveRow
        state={state}
        testId={`${testId}-save`}
        label="set.secret.save"
        disabled={value.trim() === ''}
        onSave={() => void store(value.trim())}
      >
        {props.masked && (
          <button
            type="button"
            className="button ghost danger-text"
            data-testid={`${testId}-clear`}
            onClick={() => void store(null)}
          >
            {t('set.secret.clear')}
          </button>
        )}
      </SaveRow>
    </div>
  );
}
