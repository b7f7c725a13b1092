/**
 * The composer's model: the default (the AIVORY_* model given at start-up, else the saved default
 * model) or any saved model. Reloaded whenever the settings panel closes (models may have changed).
 */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { useT } from '../../i18n/use-t';
import type { ModelChoice } from '../../state/composer-rules';
import { modelChoices } from '../../state/composer-rules';
import { useApp } from '../../state/store';

/** A select of the models (`data-testid="model-picker"`). */
export function ModelPicker(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const settingsOpen = useApp((state) => state.settingsOpen);
  const modelId = useApp((state) => state.modelId);
  const setModelId = useApp((state) => state.setModelId);
  const [choices, setChoices] = useState<ModelChoice[]>([]);
  useEffect(() => {
    if (!bridge || settingsOpen) return;
    let current = true;
    bridge.invoke('models.list').then(
      (list) => {
        if (current) setChoices(modelChoices(list));
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [bridge, settingsOpen]);
  useEffect(() => {
    // A model removed in the settings falls back to the default.
    if (modelId !== null && choices.length > 0 && !choices.some((choice) => choice.id === modelId))
      setModelId(null);
  }, [choices, modelId, setModelId]);
  if (choices.length === 0) return null;
  return (
    <label className="model-picker">
      <span>{t('composer.model')}</span>
      <select
        data-testid="model-picker"
        value={modelId ?? ''}
        onChange={(event) => setModelId(event.target.value === '' ? null : event.target.value)}
      >
        {choices.map((choice) => (
          <option key={choice.id ?? ''} value={choice.id ?? ''}>
            {choice.kind === 'automatic'
              ? t('composer.modelDefault', { name: choice.label })
              : choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
