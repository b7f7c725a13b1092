/**
 * The provider picker of the setup screen and the model editor: the presets of
 * `shared/provider-presets.ts` grouped as cloud providers, local servers and Custom, and a note
 * under it saying whether the provider needs a key, where keys are made (a link opened outside
 * the app) and where the key is sent (`Authorization: Bearer`, to the base URL's origin only).
 */
import type { ReactNode } from 'react';
import { originOf } from '../../../shared/url-origin';
import type { ProviderPreset } from '../../../shared/provider-presets';
import { CUSTOM_PRESET_ID, presetById, PROVIDER_PRESETS } from '../../../shared/provider-presets';
import { useT } from '../../i18n/use-t';

/** A `<select>` of the presets; `onChange` receives the chosen preset. */
export function ProviderSelect(props: {
  value: string;
  testId: string;
  onChange(preset: ProviderPreset): void;
}): ReactNode {
  const t = useT();
  const group = (kind: 'cloud' | 'local'): ReactNode =>
    PROVIDER_PRESETS.filter((preset) => preset.kind === kind).map((preset) => (
      <option key={preset.id} value={preset.id}>
        {preset.name}
      </option>
    ));
  return (
    <select
      data-testid={props.testId}
      value={props.value}
      onChange={(event) => props.onChange(presetById(event.target.value))}
    >
      <optgroup label={t('models.provider.cloud')}>{group('cloud')}</optgroup>
      <optgroup label={t('models.provider.local')}>{group('local')}</optgroup>
      <option value={CUSTOM_PRESET_ID}>{t('models.provider.custom')}</option>
    </select>
  );
}

/** What the chosen provider needs and where its key goes. */
export function ProviderNote(props: {
  preset: ProviderPreset;
  baseUrl: string;
  testId: string;
}): ReactNode {
  const t = useT();
  const { preset } = props;
  const origin = originOf(props.baseUrl.trim());
  const keyHost = preset.keyUrl === null ? null : new URL(preset.keyUrl).host;
  return (
    <p className="field-hint provider-note" data-testid={props.testId} data-preset={preset.id}>
      {preset.kind === 'local' && t('models.provider.local.hint')}
      {preset.kind === 'custom' && t('models.provider.custom.hint')}
      {preset.needsKey && t('models.provider.needsKey')}
      {preset.keyUrl !== null && keyHost !== null && (
        <>
          {' '}
          <a href={preset.keyUrl} target="_blank" rel="noreferrer noopener">
            {t('models.provider.getKey', { host: keyHost })}
          </a>
          {'. '}
        </>
      )}
      {props.baseUrl.trim() !== '' && origin.startsWith('http') && (
        <> {t('models.provider.auth', { origin })}</>
      )}
    </p>
  );
}
