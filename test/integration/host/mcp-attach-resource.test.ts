/**
 * `mcp.attachResource` over a real AppContext against real MCP servers: server-everything (a
 * text resource, a template's blob) and a local SDK server with a PNG, a PDF, a Markdown note,
 * bytes that claim to be an image and a resource of two parts. The files come back named from
 * the URI, typed from their bytes, the service named; garbage requests get clear errors; and the
 * files, sent with `chat.send`, reach a vision model as an image part.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InvokeMethod, InvokeRequest } from '../../../src/shared/ipc-contract';
import { invokeContract } from '../../../src/shared/ipc-contract';
import type { EverythingServer } from '../../support/mcp-everything-server';
import { startEverythingServer } from '../../support/mcp-everything-server';
import type { ResourceServer } from '../../support/mcp-resource-server';
import {
  NOTE_TEXT,
  RED_PNG,
  RESOURCES,
  startResourceServer,
  TINY_PDF,
} from '../../support/mcp-resource-server';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture } from '../../support/host/host-fixture';
import type { ScriptedLlmServer } from '../../support/scripted-llm-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';

const decode = (base64: string): Buffer => Buffer.from(base64, 'base64');

describe('mcp.attachResource with real MCP servers', () => {
  let everything: EverythingServer;
  let lab: ResourceServer;
  let fixture: HostFixture;
  let everythingId = '';
  let labId = '';
  let llm: ScriptedLlmServer | null = null;

  async function addService(name: string, url: string): Promise<string> {
    const added = await fixture.value('mcp.add', {
      name,
      icon: '📦',
      description: 'Resources to attach.',
      transport: 'streamable-http',
      url,
    });
    const id = added.service.id;
    await fixture.value('mcp.sync', { id });
    await fixture.value('mcp.accept', { id });
    await fixture.value('mcp.setEnabled', { id, enabled: true });
    return id;
  }

  const attach = async (id: string, uri: string) => {
    const value = await fixture.value('mcp.attachResource', { id, uri });
    const parsed = invokeContract['mcp.attachResource'].response.safeParse(value);
    expect(parsed.success).toBe(true);
    return value;
  };

  beforeAll(async () => {
    everything = await startEverythingServer('streamableHttp');
    lab = await startResourceServer();
    fixture = openHostFixture();
    everythingId = await addService('everything', everything.url);
    labId = await addService('resource-lab', lab.url);
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
    await everything?.stop();
    await lab?.close();
  });
  afterEach(async () => {
    await llm?.close();
    llm = null;
  });

  it('server-everything: a static document is a text file, a template blob a file of its own', async () => {
    const library = await fixture.value('mcp.library', { id: everythingId });
    const document = library.resources.find((resource) => resource.name === 'features.md');
    expect(document).toBeDefined();
    const text = await attach(everythingId, document?.uri ?? '');
    expect(text.service).toBe('everything');
    expect(text.files).toHaveLength(1);
    expect(text.files[0]).toMatchObject({ name: 'features.md', mime: 'text/markdown' });
    expect(decode(text.files[0]?.dataBase64 ?? '').toString('utf8')).toContain('#');

    const blob = await attach(everythingId, 'demo://resource/dynamic/blob/7');
    expect(blob.files).toHaveLength(1);
    // Declared text/plain, bytes not recognised: the server's type, the URI's name, an extension.
    expect(blob.files[0]).toMatchObject({ name: '7.txt', mime: 'text/plain' });
    const bytes = decode(blob.files[0]?.dataBase64 ?? '');
    expect(bytes.toString('utf8')).toMatch(/^Resource 7: This is a base64 blob/);
    expect(blob.files[0]?.size).toBe(bytes.byteLength);
  }, 60_000);

  it('binary parts: the PNG and the PDF typed from their bytes; a fake image is not an image', async () => {
    const image = await attach(labId, RESOURCES.image);
    expect(image).toMatchObject({
      service: 'resource-lab',
      files: [{ name: 'red square.png', mime: 'image/png', size: RED_PNG.byteLength }],
    });
    expect(decode(image.files[0]?.dataBase64 ?? '').equals(RED_PNG)).toBe(true);

    const pdf = await attach(labId, RESOURCES.pdf);
    expect(pdf.files).toMatchObject([{ name: 'report.pdf', mime: 'application/pdf' }]);
    expect(decode(pdf.files[0]?.dataBase64 ?? '').equals(TINY_PDF)).toBe(true);

    const note = await attach(labId, RESOURCES.note);
    expect(note.files).toMatchObject([{ name: 'meeting.md', mime: 'text/markdown' }]);
    expect(decode(note.files[0]?.dataBase64 ?? '').toString('utf8')).toBe(NOTE_TEXT);

    // Claims image/png, holds a batch file: opaque bytes, never "….bat" nor an image.
    const fake = await attach(labId, RESOURCES.fakeImage);
    expect(fake.files).toMatchObject([
      { name: 'not-really.bat.bin', mime: 'application/octet-stream' },
    ]);

    const pair = await attach(labId, RESOURCES.pair);
    expect(pair.files.map((file) => [file.name, file.mime])).toEqual([
      ['readme.txt', 'text/plain'],
      ['pixel.png', 'image/png'],
    ]);
  }, 60_000);

  it('garbage requests get clear errors; unknown services and resources say so', async () => {
    const garbage: unknown[] = [
      undefined,
      null,
      'test://pair',
      { id: labId },
      { id: labId, uri: '' },
      { id: labId, uri: 42 },
      { id: labId, uri: RESOURCES.pair, extra: true },
      { id: labId, uri: 'x'.repeat(100_000) },
    ];
    for (const request of garbage) {
      const result = await fixture.call(
        'mcp.attachResource',
        request as InvokeRequest<InvokeMethod & 'mcp.attachResource'>,
      );
      expect(result, JSON.stringify(request)?.slice(0, 80)).toMatchObject({
        ok: false,
        error: { code: 'invalid-input', message: expect.any(String) },
      });
      if (!result.ok) expect(result.error.message.length).toBeLessThan(1_000);
    }
    expect(
      await fixture.call('mcp.attachResource', { id: 'mcp_nope', uri: RESOURCES.pair }),
    ).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const unknown = await fixture.call('mcp.attachResource', {
      id: everythingId,
      uri: 'demo://resource/dynamic/blob/zero',
    });
    expect(unknown).toMatchObject({ ok: false });
    if (!unknown.ok) expect(unknown.error.message).toMatch(/Unknown resource|not found/i);
  }, 60_000);

  it('sent with chat.send, the attached PNG reaches a vision model as an image part', async () => {
    llm = await startScriptedLlmServer(() => ({ content: 'A red square.' }));
    const model = await fixture.value('models.save', {
      label: 'Seeing model',
      baseUrl: llm.baseUrl,
      model: 'scripted-model',
      toolMode: 'prompt',
      vision: true,
    });
    const image = await attach(labId, RESOURCES.image);
    const sent = await fixture.value('chat.send', {
      text: 'What is in this picture?',
      modelId: model.id,
      attachments: image.files.map((file) => ({
        name: file.name,
        mime: file.mime,
        dataBase64: file.dataBase64,
      })),
    });
    expect(sent.conversationId).toBeTruthy();
    await expect.poll(() => llm?.requests.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
    const body = JSON.stringify(llm.requests[0]?.body.messages);
    expect(body).toContain('image_url');
    expect(body).toContain(`data:image/png;base64,${RED_PNG.toString('base64')}`);
    expect(body).toContain('red square.png');
  }, 60_000);
});
