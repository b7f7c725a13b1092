/**
 * fetch_image: downloads one image through the SSRF-guarded fetcher and writes it into the
 * conversation's sandbox at /workspace/downloads/<name>, returning that stable path for
 * python_execute. Definition verbatim from the seed (docs/seeds/000_67077f376ad9eee3.txt);
 * checked by a test. The bytes decide what the file is (and its extension): the server's
 * Content-Type only has to say "an image" or "binary", SVG is refused, and the pixel size is
 * checked from the header before anything decodes the image. In a tainted turn a URL to a new
 * host that carries a query string asks first (tainted-fetch-gate.ts).
 */
import type {
  DownloadStager,
  Tool,
  ToolContext,
  ToolOutput,
  WebResourceFetcher,
} from '../core/ports';
import { builtInArgumentCheck } from './arguments/argument-check';
import { downloadName } from './web-download-name';
import { downloadPublicImage } from './public-image';
import { USER_APPROVAL_WAIT_MS } from '../core/ports';
import { taintedFetchGate } from './tainted-fetch-gate';
import { formatBytes } from '../../shared/byte-size';
import { damagedWorkspaceResult, DamagedWorkspaceError } from '../../shared/sandbox-workspace';

export {
  checkImageMediaType,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SIDE,
} from './public-image';

export const FETCH_IMAGE_NAME = 'fetch_image';

export const FETCH_IMAGE_DESCRIPTION =
  "Download an image from a public HTTP(S) URL into this conversation's Python sandbox. Returns a stable path under /workspace/downloads/ that python_execute can open with Pillow or use in documents.";

export const FETCH_IMAGE_SCHEMA_JSON =
  '{"type":"object","properties":{"url":{"type":"string"},"filename":{"type":"string"}},"required":["url"]}';

/** The fetch deadline (20 s) plus staging into the sandbox. */
const DEFAULT_TIMEOUT_MS = 60_000;

export const FETCH_IMAGE_NO_SANDBOX =
  'fetch_image needs the Python sandbox, which is not configured (请先配置沙盒). The image cannot be downloaded; tell the user to configure the sandbox, or link to the image instead.';

export interface FetchImageDependencies {
  fetcher: WebResourceFetcher;
  /** Null when no sandbox is configured; the tool should then not be offered at all. */
  downloads: DownloadStager | null;
  /** Conversation used when the tool runs outside one (`aivory tool fetch_image`). */
  scratchConversationId: string;
  maxImageBytes?: number;
  timeoutMs?: number;
}

export function createFetchImageTool(dependencies: FetchImageDependencies): Tool {
  return {
    name: FETCH_IMAGE_NAME,
    description: FETCH_IMAGE_DESCRIPTION,
    inputSchema: JSON.parse(FETCH_IMAGE_SCHEMA_JSON) as Record<string, unknown>,
    timeoutMs: (dependencies.timeoutMs ?? DEFAULT_TIMEOUT_MS) + USER_APPROVAL_WAIT_MS,
    validate,
    // The image comes from a model-chosen address; its bytes are untrusted (and python_execute
    // may read them), so the call taints the turn with its URL.
    untrustedOutput: {
      sources: (args) => (typeof args.url === 'string' ? [args.url] : []),
    },
    execute: (args, context) => {
      const invalid = validate(args);
      if (invalid !== null) return Promise.resolve({ content: invalid, isError: true });
      const record = Object.fromEntries(Object.entries(args ?? {}));
      const filename = typeof record.filename === 'string' ? record.filename : null;
      return run(dependencies, String(record.url).trim(), filename, context);
    },
  };
}

/** Longest URL accepted (the fetcher has its own, equal limit). */
const MAX_URL_CHARS = 8192;

const validate = builtInArgumentCheck(FETCH_IMAGE_SCHEMA_JSON, {
  properties: { url: { nonBlank: true, maxLength: MAX_URL_CHARS } },
});

async function run(
  dependencies: FetchImageDependencies,
  url: string,
  filename: string | null,
  context: ToolContext,
): Promise<ToolOutput> {
  if (!dependencies.downloads) return { content: FETCH_IMAGE_NO_SANDBOX, isError: true };
  // Refused before any request: nothing untrusted was read, the turn is not tainted by it.
  const gate = taintedFetchGate(FETCH_IMAGE_NAME, url, context);
  const refusal = gate === null ? null : await gate;
  if (refusal !== null) {
    return { content: `Could not fetch ${url}: ${refusal}`, isError: true, untrustedSources: [] };
  }
  const download = await downloadPublicImage(dependencies.fetcher, url, {
    signal: context.signal,
    logger: context.logger,
    ...(dependencies.maxImageBytes ? { maxBytes: dependencies.maxImageBytes } : {}),
  });
  if (!download.ok) {
    // The address rules refused it before any request: nothing was read, no taint either.
    return download.refusedBeforeRequest
      ? { content: download.error, isError: true, untrustedSources: [] }
      : { content: download.error, isError: true };
  }
  const { image } = download;
  const { width, height } = image;
  const resource = { body: image.bytes, finalUrl: image.finalUrl };
  const name = downloadName(filename, resource.finalUrl, image.extension);
  const conversationId = context.conversationId ?? dependencies.scratchConversationId;
  let path: string;
  try {
    path = await dependencies.downloads.stageDownload(
      conversationId,
      name,
      resource.body,
      context.signal,
    );
  } catch (error) {
    // No save of the conversation's /workspace can be read: the same way out as python_execute
    // gives (thrown, it would reach the model and the user only as the generic "tool failed").
    if (!(error instanceof DamagedWorkspaceError)) throw error;
    return { content: damagedWorkspaceResult(error.detail, conversationId), isError: true };
  }
  return {
    content: `Saved the image to ${path} (${image.format.toUpperCase()}, ${width}×${height} pixels, ${formatBytes(resource.body.byteLength)}) from ${resource.finalUrl}. Open it in python_execute, e.g. Image.open('${path}').`,
  };
}
