import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiImageClient } from '../../../src/main/adapters/openai/openai-image-client';
import { FileArtifactSink } from '../../../src/main/adapters/artifacts/file-artifact-sink';
import type { ImageFile, ToolContext } from '../../../src/main/core/ports';
import {
  createImageGenerateTool,
  IMAGE_GENERATE_DESCRIPTION,
  IMAGE_GENERATE_NAME,
  IMAGE_GENERATE_SCHEMA_JSON,
  parseImageGenerateArguments,
} from '../../../src/main/tools/image-generate';
import { normalizeImageSize } from '../../../src/main/tools/image-size';
import { AivoryError } from '../../../src/shared/errors';
import type { FakeImagesServer } from '../../support/fake-images-server';
import { makePng, startFakeImagesServer } from '../../support/fake-images-server';
import { readSeed, seedToolDefinition, TOOL_PROTOCOL_SEED } from '../../support/seed';

const API_KEY = 'sk-test-secret-key-123456';
const silentLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function context(conversationId: string | null = 'c1'): ToolContext {
  return { conversationId, signal: new AbortController().signal, logger: silentLogger };
}

function png(name: string, width = 64, height = 64): ImageFile {
  return { bytes: new Uint8Array(makePng(width, height)), name, mime: 'image/png' };
}

let server: FakeImagesServer;
let artifactRoot: string;

beforeAll(async () => {
  server = await startFakeImagesServer();
  artifactRoot = mkdtempSync(join(tmpdir(), 'aivory-image-'));
});
afterAll(async () => {
  await server.close();
  rmSync(artifactRoot, { recursive: true, force: true });
});
afterEach(() => {
  server.requests.length = 0;
  server.rejectAuth = false;
  server.answerWithUrl = null;
});

function makeTool(
  options: {
    model?: string;
    previous?: ImageFile | null;
    attachments?: ImageFile[];
  } = {},
) {
  const images = new OpenAiImageClient({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    model: options.model ?? 'gpt-image-1',
    maxRetries: 0,
  });
  return createImageGenerateTool({
    images,
    artifacts: new FileArtifactSink(artifactRoot),
    previousGeneration: () => Promise.resolve(options.previous ?? null),
    currentAttachments: () => Promise.resolve(options.attachments ?? []),
  });
}

describe('image_generate', () => {
  it('definition is the seed text, verbatim', () => {
    const seed = seedToolDefinition(readSeed(TOOL_PROTOCOL_SEED), IMAGE_GENERATE_NAME);
    expect(IMAGE_GENERATE_DESCRIPTION).toBe(seed.description);
    expect(IMAGE_GENERATE_SCHEMA_JSON).toBe(seed.schema);
    const tool = makeTool();
    expect(tool.name).toBe(IMAGE_GENERATE_NAME);
    expect(tool.description).toBe(seed.description);
    expect(JSON.stringify(tool.inputSchema)).toBe(seed.schema);
  });

  it('generate sends no image and saves the PNG artifact', async () => {
    const tool = makeTool();
    const output = await tool.execute(
      { prompt: 'a red fox', action: 'generate', base_image: 'none', size: 'landscape' },
      context('gen-conv'),
    );
    expect(output.isError).toBeFalsy();
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/images/generations');
    expect(request?.fields).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'a red fox',
      n: '1',
      size: '1536x1024',
    });
    expect(request?.fields.image).toBeUndefined();
    expect(request?.fields.response_format).toBeUndefined();
    expect(output.artifacts).toHaveLength(1);
    const artifact = output.artifacts?.[0];
    expect(artifact?.name).toBe('image-1.png');
    expect(artifact?.mime).toBe('image/png');
    const saved = readFileSync(artifact?.path ?? '');
    expect([...saved.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(output.content).toContain('image-1.png');
    expect(output.content).toContain('attached to your answer automatically');
  });

  it('generate with n=3 saves three artifacts', async () => {
    const output = await makeTool({ attachments: [png('a.png')] }).execute(
      { prompt: 'three cats', action: 'generate', base_image: 'none', n: 3 },
      context('gen-three'),
    );
    expect(output.artifacts?.map((artifact) => artifact.name)).toEqual([
      'image-1.png',
      'image-2.png',
      'image-3.png',
    ]);
    expect(server.requests[0]?.path).toBe('/v1/images/generations');
  });

  it('edit with previous_generation sends exactly one base image', async () => {
    const tool = makeTool({ previous: png('image-1.png') });
    const output = await tool.execute(
      { prompt: 'make the sky purple', action: 'edit', base_image: 'previous_generation' },
      context('edit-prev'),
    );
    expect(output.isError).toBeFalsy();
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/images/edits');
    expect(request?.imageParts).toBe(1);
    expect(request?.imageNames).toEqual(['image-1.png']);
    expect(request?.fields.prompt).toBe('make the sky purple');
    expect(request?.fields.model).toBe('gpt-image-1');
    expect(output.artifacts?.[0]?.name).toBe('image-1.png');
  });

  it('current_attachment selects the 1-based index; the others become references', async () => {
    const tool = makeTool({
      model: 'gpt-image-2',
      attachments: [png('first.png'), png('second.png', 160, 90), png('third.png')],
    });
    const output = await tool.execute(
      {
        prompt: 'put the hat from the others on this person',
        action: 'edit',
        base_image: 'current_attachment',
        base_image_index: 2,
      },
      context('edit-attach'),
    );
    expect(output.isError).toBeFalsy();
    const request = server.requests[0];
    expect(request?.imageParts).toBe(3);
    expect(request?.imageNames).toEqual(['second.png', 'first.png', 'third.png']);
    expect(request?.fieldNames.filter((name) => name.startsWith('image'))).toEqual([
      'image[]',
      'image[]',
      'image[]',
    ]);
    // The base image's 16:9 ratio is preserved at the default 2K tier.
    expect(request?.fields.size).toBe('2048x1152');
    expect(output.content).toContain('2 reference images');
  });

  it('returns a clear error for every invalid combination', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ action: 'generate', base_image: 'none' }, '"prompt" must be a non-empty string'],
      [
        { prompt: 'x', action: 'draw', base_image: 'none' },
        '"action" must be "generate" or "edit"',
      ],
      [
        { prompt: 'x', action: 'generate', base_image: 'latest' },
        '"base_image" must be "none", "previous_generation" or "current_attachment"',
      ],
      [
        { prompt: 'x', action: 'generate', base_image: 'previous_generation' },
        'action=generate never uses a conversation image: set base_image to "none". To change an existing image, use action=edit.',
      ],
      [
        { prompt: 'x', action: 'generate', base_image: 'current_attachment', base_image_index: 1 },
        'action=generate never uses a conversation image: set base_image to "none". To change an existing image, use action=edit.',
      ],
      [
        { prompt: 'x', action: 'generate', base_image: 'none', base_image_index: 1 },
        '"base_image_index" is only used with base_image="current_attachment".',
      ],
      [
        { prompt: 'x', action: 'edit', base_image: 'none' },
        'action=edit needs exactly one base image: set base_image to "previous_generation" or to "current_attachment" with base_image_index. To make a new image, use action=generate.',
      ],
      [
        { prompt: 'x', action: 'edit', base_image: 'previous_generation', base_image_index: 1 },
        '"base_image_index" is only used with base_image="current_attachment"; omit it for previous_generation.',
      ],
      [
        { prompt: 'x', action: 'edit', base_image: 'current_attachment' },
        'base_image="current_attachment" needs base_image_index, the 1-based position of the image uploaded this turn.',
      ],
      [
        { prompt: 'x', action: 'edit', base_image: 'current_attachment', base_image_index: 0 },
        '"base_image_index" must be an integer of at least 1 (the 1-based position)',
      ],
      [
        { prompt: 'x', action: 'edit', base_image: 'current_attachment', base_image_index: 1.5 },
        '"base_image_index" must be an integer of at least 1 (the 1-based position)',
      ],
      [
        { prompt: 'x', action: 'generate', base_image: 'none', n: 5 },
        '"n" must be an integer from 1 to 4',
      ],
      [
        { prompt: 'x', action: 'generate', base_image: 'none', n: 0 },
        '"n" must be an integer from 1 to 4',
      ],
      [
        { prompt: 'x', action: 'generate', base_image: 'none', size: 1024 },
        '"size" must be a string such as "1536x1024", "16:9" or "4K landscape"',
      ],
    ];
    const tool = makeTool({ previous: png('p.png'), attachments: [png('a.png')] });
    for (const [args, message] of cases) {
      const parsed = parseImageGenerateArguments(args);
      expect(parsed).toEqual({ ok: false, message });
      expect(tool.validate?.(args)).toBe(message);
      const output = await tool.execute(args, context());
      expect(output).toEqual({ content: message, isError: true });
    }
    expect(server.requests).toHaveLength(0);
  });

  it('reports edits with nothing to edit and indexes out of range, without calling the API', async () => {
    const empty = makeTool();
    const noPrevious = await empty.execute(
      { prompt: 'x', action: 'edit', base_image: 'previous_generation' },
      context(),
    );
    expect(noPrevious).toEqual({
      content:
        'There is no previously generated image in this conversation to edit. Use action=generate for a new image, or base_image="current_attachment" with base_image_index if the user uploaded the image this turn.',
      isError: true,
    });
    const noAttachments = await empty.execute(
      { prompt: 'x', action: 'edit', base_image: 'current_attachment', base_image_index: 1 },
      context(),
    );
    expect(noAttachments).toEqual({
      content:
        'No image was uploaded this turn, so base_image="current_attachment" has nothing to edit. Use base_image="previous_generation" to continue a generated image, or ask the user to attach the image.',
      isError: true,
    });
    const two = makeTool({ attachments: [png('a.png'), png('b.png')] });
    const outOfRange = await two.execute(
      { prompt: 'x', action: 'edit', base_image: 'current_attachment', base_image_index: 3 },
      context(),
    );
    expect(outOfRange).toEqual({
      content: 'base_image_index 3 is out of range: 2 images were uploaded this turn (use 1–2).',
      isError: true,
    });
    const outsideConversation = await two.execute(
      { prompt: 'x', action: 'edit', base_image: 'current_attachment', base_image_index: 1 },
      context(null),
    );
    expect(outsideConversation.isError).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('normalises sizes', () => {
    const table: [string | undefined, string, { width: number; height: number } | null, string][] =
      [
        [undefined, 'gpt-image-2', null, '2048x2048'],
        ['1K', 'gpt-image-2', null, '1024x1024'],
        ['4K', 'gpt-image-2', null, '2880x2880'],
        ['4K 16:9', 'gpt-image-2', null, '3840x2160'],
        ['16:9', 'gpt-image-2', null, '2048x1152'],
        ['1k 16:9', 'gpt-image-2', null, '1088x608'],
        ['portrait 2K', 'gpt-image-2', null, '1360x2048'],
        ['widescreen', 'gpt-image-2', null, '2048x1152'],
        ['1000x1000', 'gpt-image-2', null, '1008x1008'],
        ['1919×1081', 'gpt-image-2', null, '1920x1088'],
        ['8000x1000', 'gpt-image-2', null, '3008x1008'],
        ['5000x5000', 'gpt-image-2', null, '2880x2880'],
        ['100x100', 'gpt-image-2', null, '816x816'],
        [undefined, 'gpt-image-2', { width: 900, height: 1600 }, '1152x2048'],
        ['square', 'gpt-image-2', { width: 900, height: 1600 }, '2048x2048'],
        [undefined, 'gpt-image-1', null, '1024x1024'],
        ['16:9', 'gpt-image-1', null, '1536x1024'],
        ['9:16 4K', 'gpt-image-1', null, '1024x1536'],
        ['1920x1080', 'gpt-image-1', null, '1536x1024'],
        ['6:5', 'gpt-image-1.5', null, '1024x1024'],
        ['5:4', 'gpt-image-1.5', null, '1536x1024'],
        ['portrait', 'openai/gpt-image-1-mini', null, '1024x1536'],
        [undefined, 'gpt-image-1', { width: 1600, height: 900 }, '1536x1024'],
        ['16:9', 'dall-e-3', null, '1792x1024'],
        ['16:9', 'dall-e-2', null, '1024x1024'],
      ];
    for (const [requested, model, base, expected] of table) {
      expect({ requested, model, base, size: normalizeImageSize(requested, model, base) }).toEqual({
        requested,
        model,
        base,
        size: expected,
      });
    }
  });

  it('downloads images answered as a URL through the given downloader; refuses them without one', async () => {
    server.answerWithUrl = 'https://cdn.example/generated/1.png';
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const downloaded: string[] = [];
    const withDownloader = new OpenAiImageClient({
      baseUrl: server.baseUrl,
      apiKey: API_KEY,
      model: 'gpt-image-1',
      maxRetries: 0,
      downloadImage: (url) => {
        downloaded.push(url);
        return Promise.resolve({ bytes: png, mime: 'image/png' });
      },
    });
    const result = await withDownloader.generate({
      prompt: 'p',
      n: 1,
      size: '1024x1024',
      signal: new AbortController().signal,
    });
    expect(downloaded).toEqual(['https://cdn.example/generated/1.png']);
    expect(result.images).toEqual([{ bytes: png, mime: 'image/png' }]);
    const without = new OpenAiImageClient({
      baseUrl: server.baseUrl,
      apiKey: API_KEY,
      model: 'gpt-image-1',
      maxRetries: 0,
    });
    await expect(
      without.generate({
        prompt: 'p',
        n: 1,
        size: '1024x1024',
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow('returned no image data (neither base64 nor a URL)');
  });

  it('401 becomes an auth error that does not contain the key', async () => {
    server.rejectAuth = true;
    const tool = makeTool();
    const failure = await tool
      .execute({ prompt: 'x', action: 'generate', base_image: 'none' }, context())
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(AivoryError);
    if (!(failure instanceof AivoryError)) return;
    expect(failure.code).toBe('auth');
    expect(failure.message).not.toContain(API_KEY);
    expect(server.requests[0]?.authorization).toBe(`Bearer ${API_KEY}`);
  });
});
