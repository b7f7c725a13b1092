/**
 * Pure rules of the composer's vision hint: whether the chosen model takes images, and whether a
 * pending file is a raster image (by its bytes, as the host decides: png, jpeg, gif, webp).
 */
import type { InvokeResponse } from '../../shared/ipc-contract';

type ModelList = InvokeResponse<'models.list'>;

/**
 * Whether the model the composer sends to takes images: a saved model says so; the default is
 * the environment model (unknown: null) or the saved default model. Null when unknown.
 */
export function chosenModelVision(list: ModelList, modelId: string | null): boolean | null {
  if (modelId !== null) {
    const saved = list.models.find((model) => model.id === modelId);
    return saved ? saved.vision === true : null;
  }
  if (list.environmentModel) return null;
  const savedDefault = list.models.find((model) => model.isDefault);
  return savedDefault ? savedDefault.vision === true : null;
}

const RASTER_SIGNATURES: readonly (readonly number[])[] = [
  [0x89, 0x50, 0x4e, 0x47],
  [0xff, 0xd8, 0xff],
  [0x47, 0x49, 0x46, 0x38],
];

/** True when base64 data starts with a png, jpeg, gif or webp signature. */
export function isRasterImageData(dataBase64: string): boolean {
  let head: string;
  try {
    head = atob(dataBase64.slice(0, 16));
  } catch {
    return false;
  }
  const bytes = [...head].map((char) => char.charCodeAt(0));
  if (RASTER_SIGNATURES.some((signature) => signature.every((byte, i) => bytes[i] === byte)))
    return true;
  return head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP';
}
