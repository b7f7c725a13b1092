import { describe, expect, it } from 'vitest';
import type { InvokeResponse } from '../../../src/shared/ipc-contract';
import { chosenModelVision, isRasterImageData } from '../../../src/renderer/state/vision-rules';

type ModelView = InvokeResponse<'models.list'>['models'][number];

function model(id: string, vision: boolean, isDefault = false): ModelView {
  return {
    id,
    label: id,
    baseUrl: 'http://127.0.0.1:9/v1',
    model: id,
    toolMode: 'native',
    contextWindow: 8192,
    defaultTools: null,
    isDefault,
    apiKeyMasked: null,
    vision,
  };
}

const base64 = (bytes: number[] | string): string =>
  Buffer.from(typeof bytes === 'string' ? bytes : Uint8Array.from(bytes)).toString('base64');

describe('renderer: the vision hint', () => {
  it('knows whether the chosen model takes images; the environment model is unknown', () => {
    const models = [model('seeing', true), model('blind', false, true)];
    expect(chosenModelVision({ models, environmentModel: null }, 'seeing')).toBe(true);
    expect(chosenModelVision({ models, environmentModel: null }, 'blind')).toBe(false);
    expect(chosenModelVision({ models, environmentModel: null }, 'gone')).toBeNull();
    // The default entry: the saved default model, unless a model came from the environment.
    expect(chosenModelVision({ models, environmentModel: null }, null)).toBe(false);
    const environmentModel = {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'env',
      toolMode: 'native' as const,
      apiKeyMasked: null,
    };
    expect(chosenModelVision({ models, environmentModel }, null)).toBeNull();
    expect(chosenModelVision({ models: [], environmentModel: null }, null)).toBeNull();
  });

  it('tells raster images by their bytes, not their name', () => {
    expect(isRasterImageData(base64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(isRasterImageData(base64([0xff, 0xd8, 0xff, 0xe0]))).toBe(true);
    expect(isRasterImageData(base64('GIF89a'))).toBe(true);
    expect(isRasterImageData(base64('RIFF\x04\x00\x00\x00WEBPVP8 '))).toBe(true);
    expect(isRasterImageData(base64('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe(false);
    expect(isRasterImageData(base64('plain text'))).toBe(false);
    expect(isRasterImageData('')).toBe(false);
    expect(isRasterImageData('@@not base64@@')).toBe(false);
  });
});
