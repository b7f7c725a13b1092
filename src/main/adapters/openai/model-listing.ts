/**
 * A server's model list (`GET /models`) is untrusted output: this bounds it before anything shows
 * or stores it. The body is read up to `MAX_LISTING_BYTES` (`boundedFetch`); at most
 * `MAX_LISTED_MODELS` ids are kept, each a non-empty string of at most `MAX_MODEL_ID_CHARS` after
 * control and invisible formatting characters are stripped; duplicates are dropped. Capabilities
 * are read where the provider states them (OpenRouter: `architecture.input_modalities`,
 * `supported_parameters`; Mistral: `capabilities.vision` / `function_calling`), every field
 * checked for its type; anything else says nothing (null).
 */
import type { ListedModel } from '../../../shared/provider-presets';
import { AivoryError } from '../../../shared/errors';
import { stripInvisibleCharacters } from '../../../shared/untrusted-text';
import { readBoundedBody } from '../../../shared/bounded-body';

/** More ids than any provider lists today (OpenRouter: a few hundred). */
export const MAX_LISTED_MODELS = 4000;
/** Longer ids are dropped, not cut: a cut id would name a model the server does not have. */
export const MAX_MODEL_ID_CHARS = 200;
/** OpenRouter's list with its descriptions is about 1 MB. */
export const MAX_LISTING_BYTES = 16 * 1024 * 1024;
/** Raw entries looked at before giving up on a list of junk. */
const MAX_RAW_ENTRIES = MAX_LISTED_MODELS * 4;

/** The bounded list and whether entries past the cap were left out. */
export interface ModelListing {
  models: ListedModel[];
  truncated: boolean;
}

/** The cleaned id, or null when nothing usable remains or it is too long. */
export function cleanModelId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const cleaned = stripInvisibleCharacters(value).trim();
  if (cleaned === '' || cleaned.length > MAX_MODEL_ID_CHARS) return null;
  return cleaned;
}

/** Bounded, cleaned, de-duplicated entries with their stated capabilities, in server order. */
export function parseModelListing(entries: Iterable<unknown>): ModelListing {
  const models: ListedModel[] = [];
  const seen = new Set<string>();
  let looked = 0;
  let truncated = false;
  for (const entry of entries) {
    looked += 1;
    if (looked > MAX_RAW_ENTRIES) {
      truncated = true;
      break;
    }
    if (typeof entry !== 'object' || entry === null) continue;
    const id = cleanModelId((entry as { id?: unknown }).id);
    if (id === null || seen.has(id)) continue;
    if (models.length >= MAX_LISTED_MODELS) {
      truncated = true;
      break;
    }
    seen.add(id);
    models.push({ id, ...capabilitiesOf(entry as Record<string, unknown>) });
  }
  return { models, truncated };
}

function capabilitiesOf(entry: Record<string, unknown>): Omit<ListedModel, 'id'> {
  const stated = record(entry.capabilities);
  const modalities = stringArray(record(entry.architecture)?.input_modalities);
  const parameters = stringArray(entry.supported_parameters);
  return {
    vision: boolField(stated?.vision) ?? (modalities ? modalities.includes('image') : null),
    tools:
      boolField(stated?.function_calling) ?? (parameters ? parameters.includes('tools') : null),
    reasoning:
      boolField(stated?.reasoning) ??
      (parameters
        ? parameters.includes('reasoning') || parameters.includes('include_reasoning')
        : null),
  };
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function stringArray(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  return value.slice(0, 100).filter((item): item is string => typeof item === 'string');
}

function boolField(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/**
 * A fetch whose response bodies are read in full but only up to `maxBytes`: a larger body fails
 * with a `provider` error instead of filling memory. The returned response holds the bytes read.
 */
export function boundedFetch(maxBytes: number, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.body === null || [101, 204, 205, 304].includes(response.status)) return response;
    const body = await readBoundedBody(
      response.body,
      maxBytes,
      () =>
        new AivoryError(
          'provider',
          `The server's answer is larger than ${Math.round(maxBytes / (1024 * 1024))} MB; it was not read.`,
        ),
    );
    const headers = new Headers(response.headers);
    // The bytes are already decoded; the lengths and encodings of the wire no longer apply.
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
