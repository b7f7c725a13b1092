/**
 * The small building blocks of every settings form: a labelled field with its hint and the
 * problem shown right under it, a switch, and a save row with its status.
 */
import type { ReactNode } from 'react';
import type { MessageKey } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import type { FieldProblem } from './form-rules';

/** A problem to show under a field: a local check, a host message, or nothing. */
export type FieldError = FieldProblem | string | null | undefined;

/** Errors of a form by field name. */
export type FieldErrors = Record<string, FieldError>;

/** A label, the control, an optional hint and the field's error. */
export function Field(props: {
  label: MessageKey;
  labelParams?: Record<string, string | number>;
  hint?: MessageKey | null;
  error?: FieldError;
  testId: string;
  children: ReactNode;
}): ReactNode {
  const t = useT();
  return (
    <label className="field">
      <span className="field-label">{t(props.label, props.labelParams)}</span>
      {props.children}
      {props.hint && <span className="field-hint">{t(props.hint)}</span>}
      <FieldErrorText error={props.error} testId={`${props.testId}-error`} />
    </label>
  );
}

/** The error line of a field (`role="alert"`), or nothing. */
export function FieldErrorText(props: { error: FieldError; testId: string }): ReactNode {
  const t = useT();
  const { error } = props;
  if (error === null || error === undefined || error === '') return null;
  const text = typeof error === 'string' ? error : t(error.key, error.params);
  return (
    <span className="field-error" role="alert" data-testid={props.testId}>
      {text}
    </span>
  );
}

/** A labelled on/off switch (a checkbox styled as a switch). */
export function Switch(props: {
  checked: boolean;
  disabled?: boolean;
  label: ReactNode;
  testId: string;
  onChange(checked: boolean): void;
}): ReactNode {
  return (
    <label className={`switch${props.disabled ? ' disabled' : ''}`}>
      <input
        type="checkbox"
        role="switch"
        data-testid={props.testId}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      <span className="switch-track" aria-hidden="true" />
      <span>{props.label}</span>
    </label>
  );
}

/** What a save row shows after the last attempt. */
export type SaveState = 'idle' | 'saving' | 'saved' | { failed: string };

/** The save button with "saved" or the error that did not land on a field. */
export function SaveRow(props: {
  state: SaveState;
  testId: string;
  label?: MessageKey;
  disabled?: boolean;
  onSave(): void;
  children?: ReactNode;
}): ReactNode {
  const t = useT();
  const { state } = props;
  return (
    <div className="form-actions">
      <button
        type="button"
        className="button primary"
        data-testid={props.testId}
        disabled={props.disabled || state === 'saving'}
        onClick={props.onSave}
      >
        {state === 'saving' ? t('form.saving') : t(props.label ?? 'form.save')}
      </button>
      {props.children}
      {state === 'saved' && (
        <span className="check-ok" data-testid={`${props.testId}-done`}>
          {t('form.saved')}
        </span>
      )}
      {typeof state === 'object' && (
        <span className="check-failed" role="alert" data-testid={`${props.testId}-failed`}>
          {t('form.serverError', { message: state.failed })}
        </span>
      )}
    </div>
  );
}
