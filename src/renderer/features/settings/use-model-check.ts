/**
 * "Check connection and fetch models": asks the server for its models with the typed key, or
 * else the saved key of the model (or of the template model) — which the host uses only against
 * that model's own origin. A failure is shown as a failed check, never thrown.
 */
import { useState } from 'react';
import type { ModelCheck, ModelView } from '../../data/models';
import { testModelServer } from '../../data/models';
import { useApp } from '../../state/store';
import { checkUrl, errorMessage } from './form-rules';

/** The last check (null: none since the URL or provider changed), run and clear. */
export function useModelCheck(saved: ModelView | null, template: ModelView | null) {
  const bridge = useApp((state) => state.bridge);
  const [check, setCheck] = useState<ModelCheck | null>(null);
  const run = async (fields: { baseUrl: string; apiKey: string; model: string }): Promise<void> => {
    const { baseUrl, apiKey, model } = fields;
    if (!bridge || checkUrl(baseUrl, true)) return;
    try {
      setCheck(
        await testModelServer(bridge, {
          baseUrl: baseUrl.trim(),
          ...(apiKey.trim()
            ? { apiKey: apiKey.trim() }
            : saved
              ? { modelId: saved.id }
              : template
                ? { modelId: template.id }
                : {}),
          ...(model.trim() ? { model: model.trim() } : {}),
        }),
      );
    } catch (error) {
      setCheck({
        ok: false,
        models: [],
        modelListed: null,
        error: errorMessage(error),
        capabilities: [],
        truncated: false,
      });
    }
  };
  return { check, run, clear: () => setCheck(null) };
}
