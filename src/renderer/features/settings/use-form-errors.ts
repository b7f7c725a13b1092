/** A form's field errors; a field's error disappears as soon as the user edits that field. */
import { useState } from 'react';
import type { FieldErrors } from './form-controls';

/** The errors, their setter, and `edited(field, set)` wrapping a field's setter. */
export function useFormErrors(): {
  errors: FieldErrors;
  setErrors(errors: FieldErrors): void;
  edited<T>(field: string, set: (value: T) => void): (value: T) => void;
} {
  const [errors, setErrors] = useState<FieldErrors>({});
  const edited =
    <T>(field: string, set: (value: T) => void) =>
    (value: T): void => {
      set(value);
      setErrors((current) => (current[field] ? { ...current, [field]: null } : current));
    };
  return { errors, setErrors, edited };
}
