/**
 * The model editor's key: the key input (the saved one only as a mask), whose key a sibling
 * model reuses, "keep the key" when the URL moves to another origin, and "clear the saved key".
 */
import type { ReactNode } from 'react';
import { originOf } from '../../../shared/url-origin';
import type { ModelView } from '../../data/models';
import { useT } from '../../i18n/use-t';
import type { FieldErrors } from './form-controls';
import { Field } from './form-controls';
import type { ModelDraft } from './use-model-draft';

/** The key fields of `draft` (`saved`: the model being edited, or null). */
export function ModelKeyFields(props: {
  draft: ModelDraft;
  saved: ModelView | null;
  errors: FieldErrors;
  onKey(value: string): void;
}): ReactNode {
  const t = useT();
  const { draft, saved } = props;
  const { keyWouldMove, templateKey, templateKeyApplies } = draft.keys;
  return (
    <>
      <Field label="set.models.apiKey" testId="model-api-key" error={props.errors.apiKey}>
        <input
          type="password"
          autoComplete="off"
          data-testid="model-api-key"
          value={draft.apiKey}
          placeholder={
            saved?.apiKeyMasked ? t('set.models.apiKeySaved', { mask: saved.apiKeyMasked }) : ''
          }
          onChange={(e) => props.onKey(e.target.value)}
        />
      </Field>
      {templateKey !== null && (
        <p className="field-hint" data-testid="model-sibling-key">
          {templateKeyApplies
            ? t('models.siblingKey', {
                label: templateKey.label,
                mask: templateKey.apiKeyMasked ?? '',
              })
            : t('models.siblingKeyStays', {
                label: templateKey.label,
                origin: originOf(templateKey.baseUrl),
              })}
        </p>
      )}
      {keyWouldMove && (
        <label className="inline" data-testid="model-key-moves">
          <input
            type="checkbox"
            data-testid="model-keep-key"
            checked={draft.keepKey}
            onChange={(e) => draft.setKeepKey(e.target.checked)}
          />
          <span>{t('set.models.keepKey', { origin: originOf(draft.baseUrl.trim()) })}</span>
        </label>
      )}
      {saved?.apiKeyMasked && (
        <label className="inline">
          <input
            type="checkbox"
            data-testid="model-clear-key"
            checked={draft.clearKey}
            onChange={(e) => draft.setClearKey(e.target.checked)}
          />
          <span>{t('set.models.clearKey')}</span>
        </label>
      )}
    </>
  );
}
