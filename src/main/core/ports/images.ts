/**
 * The image API port image_generate uses (OpenAI's Images API in production:
 * adapters/openai/openai-image-client.ts, loaded lazily by adapters/lazy-clients.ts).
 */

/** Image bytes with their content type, as an image API returns them. */
export interface ImageData {
  bytes: Uint8Array;
  mime: string;
}

/** An image sent to an image API: bytes, a file name and a content type. */
export interface ImageFile extends ImageData {
  name: string;
}

export interface ImageGenerateRequest {
  prompt: string;
  /** 1–4. */
  n: number;
  /** A legal `WIDTHxHEIGHT` for the client's model (see `normalizeImageSize`). */
  size: string;
  signal: AbortSignal;
}

export interface ImageEditRequest extends ImageGenerateRequest {
  /** The one authoritative base image. */
  image: ImageFile;
  /** Other images the edit may draw on; never the base. */
  references: ImageFile[];
}

/**
 * How long one image request may take: a large edit or a 4K image can take minutes, and no idle
 * stream shows progress. The client's HTTP timeout and the `image_generate` tool's own limit.
 */
export const IMAGE_REQUEST_TIMEOUT_MS = 5 * 60_000;

/** An image API: generate from text, or edit one base image (with optional references). */
export interface ImageClient {
  /** The model requests go to; it decides which sizes are legal. */
  readonly model: string;
  /** Resolves with at least one image; fails with an `AivoryError` (auth, connection, provider). */
  generate(request: ImageGenerateRequest): Promise<{ images: ImageData[] }>;
  /** Same contract as `generate`; sends the base image first, then the references. */
  edit(request: ImageEditRequest): Promise<{ images: ImageData[] }>;
}
