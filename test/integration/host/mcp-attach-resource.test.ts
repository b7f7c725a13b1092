/**
 * `mcp.attachResource` over a real AppContext against real MCP servers: server-everything (a
 * text resource, a template's blob) and a local SDK server with a PNG, a PDF, a Markdown note,
 * bytes that claim to be an image and a resource of two parts. The files come back named from
 * the URI, typed from their bytes, the service named; garbage requests get clear errors; the
 * files, sent with `chat.send`, reach a vision model as an image part; and (real Docker and the
 * runner image) they are staged unchanged into the sandbox's /workspace/uploads.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InvokeMethod, InvokeRequest } from '../../../src/shared/ipc-contract';
import { invokeContract } from '../../../src/shared/ipc-contract';
import { requireDockerAndImage } from '../../../sandbox/test/support/docker-fixture';
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
  }, 120_000);
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
  }, 120_000);

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
  }, 120_000);

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
  }, 120_000);

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
  }, 120_000);
});

describe('an attached MCP resource in the sandbox', () => {
  let lab: ResourceServer;
  let fixture: HostFixture | null = null;
  let llm: ScriptedLlmServer | null = null;
  beforeAll(async () => {
    lab = await startResourceServer();
  });
  afterAll(async () => {
    await fixture?.close();
    await llm?.close();
    await lab?.close();
  });

  it('its files are staged unchanged in /workspace/uploads, like uploads', async () => {
    requireDockerAndImage();
    const listing =
      "import os, hashlib\nfor name in sorted(os.listdir('/workspace/uploads')):\n    print(name, hashlib.sha256(open('/workspace/uploads/' + name, 'rb').read()).hexdigest()[:12])";
    const code = JSON.stringify({ name: 'python_execute', arguments: { code: listing } });
    llm = await startScriptedLlmServer([
      { content: `<tool_call>${code}</tool_call>` },
      { content: 'Listed.' },
    ]);
    fixture = openHostFixture({ env: { AIVORY_LOCAL_SANDBOX: '1' } });
    const id = (
      await fixture.value('mcp.add', {
        name: 'resource-lab',
        icon: '📦',
        description: 'Resources to attach.',
        transport: 'streamable-http',
        url: lab.url,
      })
    ).service.id;
    const model = await fixture.value('models.save', {
      label: 'Sandboxed model',
      baseUrl: llm.baseUrl,
      model: 'scripted-model',
      toolMode: 'prompt',
    });
    const files = [
      ...(await fixture.value('mcp.attachResource', { id, uri: RESOURCES.pdf })).files,
      ...(await fixture.value('mcp.attachResource', { id, uri: RESOURCES.image })).files,
    ];
    await fixture.value('chat.send', {
      text: 'List my files',
      modelId: model.id,
      tools: ['python_execute'],
      attachments: files.map(({ name, mime, dataBase64 }) => ({ name, mime, dataBase64 })),
    });
    await expect.poll(() => llm?.requests.length ?? 0, { timeout: 120_000 }).toBe(2);
    const first = JSON.stringify(llm.requests[0]?.body.messages);
    expect(first).toContain('- report.pdf (application/pdf, ');
    expect(first).toContain('at /workspace/uploads/report.pdf');
    const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 12);
    const result = JSON.stringify(llm.requests[1]?.body.messages);
    expect(result).toContain(
      `stdout:\\nred square.png ${digest(RED_PNG)}\\nreport.pdf ${digest(TINY_PDF)}\\n`,
    );
  }, 180_000);
});
