/**
 * The `ImageClient` port over the `openai` SDK's Images API (`images.generate` and
 * `images.edit`), for OpenAI and compatible servers. Failures become `AivoryError`s through the
 * chat adapter's mapping (auth, connection, provider), so messages name the server and never
 * contain the API key.
 */
import OpenAI, { toFile } from 'openai';
import type { Uploadable } from 'openai';
import type { ImagesResponse } from 'openai/resources/images';
import { AivoryError } from '../../../shared/errors';
import { IMAGE_REQUEST_TIMEOUT_MS } from '../../core/ports';
import type {
  ImageClient,
  ImageData,
  ImageEditRequest,
  ImageFile,
  ImageGenerateRequest,
} from '../../core/ports';
import type { ProviderErrorContext } from './openai-errors';
import { assertHttpUrl, displayUrl, toProviderError } from './openai-errors';
import { retrying } from './request-retry';
import { rasterMediaType } from '../../../shared/file-signature';

/** Sent when no key is configured: local servers ignore it, and the SDK requires some value. */
const PLACEHOLDER_API_KEY = 'not-needed';

export interface OpenAiImageClientOptions {
  /** The endpoint root, usually ending in `/v1`. */
  baseUrl: string;
  /** Null for servers that need no key. */
  apiKey: string | null;
  /** For example `gpt-image-1` or `gpt-image-2`. */
  model: string;
  timeoutMs?: number;
  /** Retries of a failed connection or a retryable status; default 1. */
  maxRetries?: number;
  fetch?: typeof fetch;
  /**
   * Downloads an image the server returned as a `url` instead of base64 (some compatible servers
   * do); absent, such answers are refused. The app passes the SSRF-guarded image download.
   */
  downloadImage?: (url: string) => Promise<ImageData>;
}

export class OpenAiImageClient implements ImageClient {
  readonly model: string;
  private readonly client: OpenAI;
  private readonly errorContext: ProviderErrorContext;
  private readonly downloadImage: ((url: string) => Promise<ImageData>) | undefined;
  private readonly maxRetries: number;

  /** @throws AivoryError `config` when `baseUrl` is not an http(s) URL. */
  constructor(options: OpenAiImageClientOptions) {
    assertHttpUrl(options.baseUrl, 'image server', '');
    this.model = options.model;
    this.downloadImage = options.downloadImage;
    this.maxRetries = options.maxRetries ?? 1;
    this.errorContext = {
      baseUrl: displayUrl(options.baseUrl),
      apiKey: options.apiKey,
      model: options.model,
    };
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey:
        options.apiKey === null || options.apiKey === '' ? PLACEHOLDER_API_KEY : options.apiKey,
      // Explicit nulls keep OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment out.
      organization: null,
      project: null,
      webhookSecret: null,
      timeout: options.timeoutMs ?? IMAGE_REQUEST_TIMEOUT_MS,
      // Retried by `retrying` (abortable, a server's long Retry-After refused), not the SDK.
      maxRetries: 0,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      logLevel: 'off',
    });
  }

  /**
   * `POST /images/generations`. Resolves with every image the server returned (at least one);
   * rejects with an `AivoryError`, or an abort error when `signal` is aborted.
   */
  async generate(request: ImageGenerateRequest): Promise<{ images: ImageData[] }> {
    try {
      const response = await this.retried(request.signal, () =>
        this.client.images.generate(
          {
            model: this.model,
            prompt: request.prompt,
            n: request.n,
            size: request.size,
            ...this.responseFormat(),
          },
          { signal: request.signal },
        ),
      );
      return { images: await this.decode(response) };
    } catch (error) {
      throw toProviderError(error, this.errorContext);
    }
  }

  /**
   * `POST /images/edits` (multipart): the base image first, then the references, as `image[]`
   * when there are several. Same results and failures as `generate`.
   */
  async edit(request: ImageEditRequest): Promise<{ images: ImageData[] }> {
    try {
      const base = await uploadable(request.image);
      const references = await Promise.all(request.references.map(uploadable));
      const response = await this.retried(request.signal, () =>
        this.client.images.edit(
          {
            model: this.model,
            prompt: request.prompt,
            image: references.length > 0 ? [base, ...references] : base,
            n: request.n,
            size: request.size,
            ...this.responseFormat(),
          },
          { signal: request.signal },
        ),
      );
      return { images: await this.decode(response) };
    } catch (error) {
      throw toProviderError(error, this.errorContext);
    }
  }

  /** `request` with the adapter's retries (`request-retry.ts`), ended by `signal`. */
  private retried<T>(signal: AbortSignal, request: () => Promise<T>): Promise<T> {
    return retrying(request, {
      maxRetries: this.maxRetries,
      signal,
      context: this.errorContext,
    });
  }

  /** GPT Image models always answer in base64 and reject `response_format`; DALL·E needs it. */
  private responseFormat(): { response_format?: 'b64_json' } {
    return /^dall-e/i.test(this.model.split('/').pop() ?? '')
      ? { response_format: 'b64_json' }
      : {};
  }

  private async decode(response: ImagesResponse): Promise<ImageData[]> {
    const images: ImageData[] = [];
    for (const item of response.data ?? []) {
      if (typeof item.b64_json === 'string' && item.b64_json !== '') {
        const bytes = new Uint8Array(Buffer.from(item.b64_json, 'base64'));
        images.push({ bytes, mime: sniffMime(bytes, response.output_format) });
      } else if (typeof item.url === 'string' && item.url !== '' && this.downloadImage) {
        images.push(await this.downloadImage(item.url));
      }
    }
    if (images.length === 0) {
      throw new AivoryError(
        'provider',
        `The image server at ${this.errorContext.baseUrl} returned no image data (neither base64 nor a URL).`,
      );
    }
    return images;
  }
}

async function uploadable(file: ImageFile): Promise<Uploadable> {
  return toFile(file.bytes, file.name, { type: file.mime });
}

/** The content type from the bytes' signature, else from the response's `output_format`. */
function sniffMime(bytes: Uint8Array, outputFormat: string | undefined): string {
  const sniffed = rasterMediaType(bytes);
  if (sniffed !== null) return sniffed;
  if (outputFormat === 'jpeg' || outputFormat === 'webp') return `image/${outputFormat}`;
  return 'image/png';
}
