/** A server's model list is untrusted: bounded, cleaned, de-duplicated; capabilities type-checked. */
import { describe, expect, it } from 'vitest';
import {
  boundedFetch,
  cleanModelId,
  MAX_LISTED_MODELS,
  MAX_MODEL_ID_CHARS,
  parseModelListing,
} from '../../../src/main/adapters/openai/model-listing';

describe('model listing', () => {
  it('keeps ids in server order, drops duplicates, blanks, non-strings and non-objects', () => {
    const listing = parseModelListing([
      { id: 'b' },
      { id: 'a' },
      { id: 'b' },
      { id: '   ' },
      { id: 42 },
      null,
      'c',
      {},
    ]);
    expect(listing).toEqual({
      models: [
        { id: 'b', vision: null, tools: null, reasoning: null },
        { id: 'a', vision: null, tools: null, reasoning: null },
      ],
      truncated: false,
    });
  });

  it('strips control, zero-width and bidi characters; drops ids that are too long', () => {
    expect(cleanModelId('gpt\u0000-4o\u202e\u200b\n')).toBe('gpt-4o');
    expect(cleanModelId('\u0007\u2066')).toBeNull();
    expect(cleanModelId('x'.repeat(MAX_MODEL_ID_CHARS))).toHaveLength(MAX_MODEL_ID_CHARS);
    expect(cleanModelId('x'.repeat(MAX_MODEL_ID_CHARS + 1))).toBeNull();
  });

  it('keeps at most MAX_LISTED_MODELS ids and says it cut the list', () => {
    const many = Array.from({ length: MAX_LISTED_MODELS + 50 }, (_, index) => ({
      id: `m${index}`,
    }));
    const listing = parseModelListing(many);
    expect(listing.models).toHaveLength(MAX_LISTED_MODELS);
    expect(listing.truncated).toBe(true);
    expect(parseModelListing(many.slice(0, MAX_LISTED_MODELS)).truncated).toBe(false);
    // A list of junk is not walked forever either.
    const junk = Array.from({ length: MAX_LISTED_MODELS * 5 }, () => ({ id: 7 }));
    expect(parseModelListing(junk)).toEqual({ models: [], truncated: true });
  });

  it('reads capabilities where the provider states them (OpenRouter, Mistral), else null', () => {
    const listing = parseModelListing([
      {
        id: 'openai/gpt-4o',
        architecture: { input_modalities: ['text', 'image'] },
        supported_parameters: ['tools', 'tool_choice'],
      },
      {
        id: 'deepseek/deepseek-r1',
        architecture: { input_modalities: ['text'] },
        supported_parameters: ['reasoning', 'include_reasoning'],
      },
      { id: 'pixtral-large', capabilities: { vision: true, function_calling: true } },
      // Wrong types say nothing.
      {
        id: 'odd',
        architecture: { input_modalities: 'image' },
        capabilities: { vision: 'yes' },
        supported_parameters: 'tools',
      },
    ]);
    expect(listing.models).toEqual([
      { id: 'openai/gpt-4o', vision: true, tools: true, reasoning: false },
      { id: 'deepseek/deepseek-r1', vision: false, tools: false, reasoning: true },
      { id: 'pixtral-large', vision: true, tools: true, reasoning: null },
      { id: 'odd', vision: null, tools: null, reasoning: null },
    ]);
  });

  it('boundedFetch passes a body under the cap and refuses a larger one', async () => {
    const body = (size: number): typeof fetch =>
      (() =>
        Promise.resolve(
          new Response('x'.repeat(size), {
            status: 200,
            headers: { 'content-type': 'application/json', 'content-length': String(size) },
          }),
        )) as typeof fetch;
    const small = await boundedFetch(100, body(100))('http://127.0.0.1/v1/models');
    expect(await small.text()).toHaveLength(100);
    expect(small.headers.get('content-type')).toBe('application/json');
    await expect(boundedFetch(100, body(101))('http://127.0.0.1/v1/models')).rejects.toThrow(
      /larger than/,
    );
  });
});
