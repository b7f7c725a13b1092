/**
 * Pure rules of the composer's vision hint: whether the chosen model takes images, and whether a
 * pending file is a raster image (by its bytes, as the host decides: png, jpeg, gif, webp).
 */
import type { InvokeResponse } from '../../shared/ipc-contract';
import { rasterFormatOf } from '../../shared/file-signature';

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

/** True when base64 data starts with a png, jpeg, gif or webp signature. */
export function isRasterImageData(dataBase64: string): boolean {
  let head: string;
  try {
    // 16 base64 characters are the 12 bytes every signature fits in.
    head = atob(dataBase64.slice(0, 16));
  } catch {
    return false;
  }
  return rasterFormatOf(Uint8Array.from(head, (char) => char.charCodeAt(0))) !== null;
}
