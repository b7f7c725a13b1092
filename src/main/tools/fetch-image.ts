/**
 * fetch_image: downloads one image through the SSRF-guarded fetcher and writes it into the
 * conversation's sandbox at /workspace/downloads/<name>, returning that stable path for
 * python_execute. Definition verbatim from the seed (docs/seeds/000_67077f376ad9eee3.txt);
 * checked by a test. The bytes decide what the file is (and its extension): the server's
 * Content-Type only has to say "an image" or "binary", SVG is refused, and the pixel size is
 * checked from the header before anything decodes the image.
 */
import type { Tool, ToolContext, ToolOutput } from '../core/ports';
import { downloadName } from './web-download-name';
import type { WebResourceFetcher } from './web-fetch-port';
import { describeNonImage, sniffImage } from './web-image-sniff';

export const FETCH_IMAGE_NAME = 'fetch_image';

export const FETCH_IMAGE_DESCRIPTION =
  "Download an image from a public HTTP(S) URL into this conversation's Python sandbox. Returns a stable path under /workspace/downloads/ that python_execute can open with Pillow or use in documents.";

export const FETCH_IMAGE_SCHEMA_JSON =
  '{"type":"object","properties":{"url":{"type":"string"},"filename":{"type":"string"}},"required":["url"]}';

/** 20 MB: large photos fit; the sandbox upload route accepts 40 MiB. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/**
 * 50 megapixels: above any camera photo or 8K frame, below Pillow's decompression-bomb limit
 * (89 MP), so the model's Image.open() in the sandbox will not be refused or exhaust memory.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** Longest side accepted, for the same reason. */
export const MAX_IMAGE_SIDE = 20_000;
/** The fetch deadline (20 s) plus staging into the sandbox. */
const DEFAULT_TIMEOUT_MS = 60_000;

export const FETCH_IMAGE_NO_SANDBOX =
  'fetch_image needs the Python sandbox, which is not configured (请先配置沙盒). The image cannot be downloaded; tell the user to configure the sandbox, or link to the image instead.';

/** Writes a file into the conversation's sandbox under /workspace/downloads/. */
export interface DownloadStager {
  /** Returns the file's absolute path in the sandbox (e.g. `/workspace/downloads/cat.png`). */
  stageDownload(
    conversationId: string,
    name: string,
    bytes: Uint8Array,
    signal: AbortSignal,
  ): Promise<string>;
}

export interface FetchImageDependencies {
  fetcher: WebResourceFetcher;
  /** Null when no sandbox is configured; the tool should then not be offered at all. */
  downloads: DownloadStager | null;
  /** Conversation used when the tool runs outside one (`aivory tool fetch_image`). */
  scratchConversationId: string;
  maxImageBytes?: number;
  timeoutMs?: number;
}

/** Content types that may carry an image; the bytes are checked either way. */
const IMAGE_ACCEPT = 'image/png, image/jpeg, image/gif, image/webp, image/bmp;q=0.9';
const GENERIC_BINARY = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export function createFetchImageTool(dependencies: FetchImageDependencies): Tool {
  return {
    name: FETCH_IMAGE_NAME,
    description: FETCH_IMAGE_DESCRIPTION,
    inputSchema: JSON.parse(FETCH_IMAGE_SCHEMA_JSON) as Record<string, unknown>,
    timeoutMs: dependencies.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    validate,
    execute: (args, context) => {
      const invalid = validate(args);
      if (invalid !== null) return Promise.resolve({ content: invalid, isError: true });
      const record = Object.fromEntries(Object.entries(args ?? {}));
      const filename = typeof record.filename === 'string' ? record.filename : null;
      return run(dependencies, String(record.url).trim(), filename, context);
    },
  };
}

function validate(args: unknown): string | null {
  if (args === null || typeof args !== 'object') return 'expected an object with "url"';
  const record = Object.fromEntries(Object.entries(args));
  if (typeof record.url !== 'string' || record.url.trim() === '')
    return '"url" must be a non-empty string';
  if (record.url.length > 8192) return '"url" is longer than 8192 characters';
  if (record.filename !== undefined && typeof record.filename !== 'string')
    return '"filename" must be a string';
  return null;
}

/** Refuses SVG and non-images by Content-Type before the body is downloaded. */
export function checkImageMediaType(mediaType: string): string | null {
  if (mediaType === 'image/svg+xml') {
    return 'SVG images are refused (they are documents that can carry scripts and external references); look for a PNG or JPEG version';
  }
  if (mediaType.startsWith('image/') || GENERIC_BINARY.has(mediaType)) return null;
  return `not an image: the server sent ${mediaType.slice(0, 80)}`;
}

async function run(
  dependencies: FetchImageDependencies,
  url: string,
  filename: string | null,
  context: ToolContext,
): Promise<ToolOutput> {
  if (!dependencies.downloads) return { content: FETCH_IMAGE_NO_SANDBOX, isError: true };
  const maxBytes = dependencies.maxImageBytes ?? MAX_IMAGE_BYTES;
  const result = await dependencies.fetcher.fetch({
    url,
    signal: context.signal,
    accept: IMAGE_ACCEPT,
    checkMediaType: checkImageMediaType,
    limits: { maxBodyBytes: maxBytes },
    logger: context.logger,
  });
  if (!result.ok) return { content: `Could not fetch ${url}: ${result.error}`, isError: true };
  const { resource } = result;
  const image = sniffImage(resource.body);
  if (!image) {
    const looksLike = describeNonImage(resource.body);
    const refusal = looksLike === 'an SVG document' ? ' (SVG images are refused)' : '';
    const claimed = resource.mediaType === '' ? 'no content type' : resource.mediaType;
    return {
      content: `Could not fetch ${url}: the content is ${looksLike}${refusal}, not an image (the server said ${claimed})`,
      isError: true,
    };
  }
  const { width, height } = image;
  if (width === null || height === null || width === 0 || height === 0) {
    return {
      content: `Could not fetch ${url}: the ${image.format.toUpperCase()} header is damaged (no image size)`,
      isError: true,
    };
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    return {
      content: `Could not fetch ${url}: the image is ${width}×${height} pixels, more than the ${MAX_IMAGE_PIXELS / 1_000_000} megapixels (or ${MAX_IMAGE_SIDE} pixels a side) accepted`,
      isError: true,
    };
  }
  const name = downloadName(filename, resource.finalUrl, image.extension);
  const conversationId = context.conversationId ?? dependencies.scratchConversationId;
  const path = await dependencies.downloads.stageDownload(
    conversationId,
    name,
    resource.body,
    context.signal,
  );
  const kilobytes = Math.max(1, Math.round(resource.body.byteLength / 1024));
  return {
    content: `Saved the image to ${path} (${image.format.toUpperCase()}, ${width}×${height} pixels, ${kilobytes} KB) from ${resource.finalUrl}. Open it in python_execute, e.g. Image.open('${path}').`,
  };
}
