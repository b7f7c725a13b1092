/**
 * The settings pages' handlers over a real AppContext: settings groups (web, mcp, sandbox limits),
 * keys only ever masked, tool switches, the sandbox status line, model MCP defaults with markers,
 * and editing memories, skills (with assets) and prompt templates.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { invokeContract } from '../../../src/shared/ipc-contract';
import type { InvokeMethod } from '../../../src/shared/ipc-contract';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture } from '../../support/host/host-fixture';

const KEY = 'sk-settings-secret-abcdef123456';

function expectContract(method: InvokeMethod, value: unknown): void {
  const parsed = invokeContract[method].response.safeParse(value);
  expect(parsed.success, `${method}: ${JSON.stringify(parsed.error?.issues ?? [])}`).toBe(true);
}

describe('settings page handlers', () => {
  let fixture: HostFixture;

  afterEach(async () => {
    await fixture?.close();
  });

  it('settings groups: validated with the field named, read back; keys only masked', async () => {
    fixture = openHostFixture();
    const web = await fixture.value('settings.set', {
      key: 'web',
      values: { maxBodyMegabytes: 12, refuseNonDefaultPorts: true },
    });
    expectContract('settings.get', web);
    expect(web.web).toEqual({
      maxBodyMegabytes: 12,
      refuseNonDefaultPorts: true,
      deadlineSeconds: 20,
    });
    for (const [key, values, field] of [
      ['web', { deadlineSeconds: 500 }, 'web.deadlineSeconds'],
      ['sandbox', { idleReapSeconds: 10 }, 'sandbox.idleReapSeconds'],
      ['sandbox', { execTimeoutSeconds: 601 }, 'sandbox.execTimeoutSeconds'],
      ['sandbox', { memoryMiB: 100 }, 'sandbox.memoryMiB'],
      // URLs: the model editor's rule (shared/endpoint-url.ts), the value quoted back.
      ['search', { baseUrl: 'javascript:alert(1)' }, 'search.baseUrl: "javascript:alert(1)" uses'],
      ['images', { baseUrl: 'file:///etc/passwd' }, 'images.baseUrl: "file:///etc/passwd" uses'],
      [
        'sandbox',
        { baseUrl: 'http://169.254.169.254/' },
        'sandbox.baseUrl: "http://169.254.169.254/" is on a link-local address',
      ],
      ['search', { baseUrl: 'http://[fe80::1]/' }, 'is on a link-local address'],
      [
        'search',
        { baseUrl: `http://x.example/${'a'.repeat(100_000)}` },
        'characters long (at most 2048)',
      ],
    ] as const) {
      const result = await fixture.call('settings.set', { key, values } as never);
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'invalid-input', message: expect.stringContaining(field) },
      });
    }
    await fixture.value('settings.set', {
      key: 'search',
      values: { provider: 'searxng', baseUrl: 'http://127.0.0.1:8888', engines: 'bing' },
    });
    await fixture.value('settings.set', { key: 'mcp', values: { allowLocalCommands: true } });
    for (const key of ['search', 'sandbox', 'images'] as const) {
      await fixture.value('settings.setKey', { key, apiKey: KEY });
    }
    const read = await fixture.value('settings.get');
    expect(read.search).toMatchObject({ provider: 'searxng', engines: 'bing' });
    expect(read.mcp.allowLocalCommands).toBe(true);
    expect(read.sandbox.apiKeyMasked).toBe('sk-…3456');
    expect(JSON.stringify(read)).not.toContain(KEY);
    expect(JSON.stringify(read)).not.toContain('api-key');
    const cleared = await fixture.value('settings.setKey', { key: 'images', apiKey: null });
    expect(cleared.images.apiKeyMasked).toBeNull();
    const malformed = await fixture.call('settings.set', {
      key: 'web',
      values: { maxBodyMegabytes: 'big' },
    } as never);
    expect(malformed).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('tool switches and the sandbox status line ("请先配置沙盒")', async () => {
    fixture = openHostFixture();
    const off = await fixture.value('tools.setAvailability', { name: 'web_fetch', enabled: false });
    expectContract('tools.setAvailability', off);
    expect(off.find((tool) => tool.name === 'web_fetch')).toMatchObject({
      enabled: false,
      available: false,
    });
    const on = await fixture.value('tools.setAvailability', { name: 'web_fetch', enabled: true });
    expect(on.find((tool) => tool.name === 'web_fetch')).toMatchObject({ available: true });
    expect(
      await fixture.call('tools.setAvailability', { name: 'rm_rf', enabled: true }),
    ).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const status = await fixture.value('sandbox.status');
    expectContract('sandbox.status', status);
    expect(status).toMatchObject({ state: 'unavailable', url: null });
    expect(status.reason).toMatch(/^请先配置沙盒: /);
  });

  it("a model's MCP defaults are kept across edits and marked 已删除 / 未同步 / 已停用", async () => {
    fixture = openHostFixture();
    const added = await fixture.value('mcp.add', {
      name: 'notes',
      icon: '📝',
      description: 'My notes.',
      transport: 'streamable-http',
      url: 'http://127.0.0.1:9/mcp',
    });
    const saved = await fixture.value('models.save', {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      apiKey: KEY,
      defaultMcpServices: [added.service.id, 'mcp_gone'],
    });
    expectContract('models.save', saved);
    expect(saved.mcpDefaults).toEqual([
      { serviceId: added.service.id, name: 'notes', marker: '已停用' },
      { serviceId: 'mcp_gone', name: null, marker: '已删除' },
    ]);
    const edited = await fixture.value('models.save', {
      id: saved.id,
      baseUrl: saved.baseUrl,
      model: 'm2',
      contextWindow: 65_536,
    });
    expect(edited.defaultMcpServices).toEqual([added.service.id, 'mcp_gone']);
    expect(edited).toMatchObject({ contextWindow: 65_536, apiKeyMasked: 'sk-…3456' });
    const listed = await fixture.value('models.list');
    expectContract('models.list', listed);
    expect(JSON.stringify(listed)).not.toContain(KEY);
    const all = await fixture.value('models.save', {
      id: saved.id,
      baseUrl: saved.baseUrl,
      model: 'm2',
      defaultMcpServices: null,
    });
    expect(all).toMatchObject({ defaultMcpServices: null, mcpDefaults: [] });
  });

  it("a model's saved key does not follow it to another server unless kept or re-entered", async () => {
    fixture = openHostFixture();
    const saved = await fixture.value('models.save', {
      baseUrl: 'https://api.example.com/v1',
      model: 'm',
      apiKey: KEY,
    });
    // Another path on the same origin keeps the key.
    const samePlace = await fixture.value('models.save', {
      id: saved.id,
      baseUrl: 'https://api.example.com/v2',
      model: 'm',
    });
    expect(samePlace.apiKeyMasked).toBe('sk-…3456');
    // Another origin without a key: the key is dropped (and its secret deleted).
    const moved = await fixture.value('models.save', {
      id: saved.id,
      baseUrl: 'https://collector.example.net/v1',
      model: 'm',
    });
    expect(moved.apiKeyMasked).toBeNull();
    expect(await fixture.app.secrets.get(`model:${saved.id}:api-key`)).toBeNull();
    // Kept on purpose, or a new key typed: both honoured.
    await fixture.value('models.save', {
      id: saved.id,
      baseUrl: 'https://api.example.com/v1',
      model: 'm',
      apiKey: KEY,
    });
    const kept = await fixture.value('models.save', {
      id: saved.id,
      baseUrl: 'https://proxy.example.org/v1',
      model: 'm',
      keepKey: true,
    });
    expect(kept.apiKeyMasked).toBe('sk-…3456');
  });

  it('memories: edit, archive, restore, delete; unknown ids are not-found', async () => {
    fixture = openHostFixture();
    const memory = fixture.app.stores.memories.saveMemory({
      id: 'mem_1',
      memoryText: 'Likes tea',
      slot: null,
      value: null,
      conversationId: null,
    });
    const edited = await fixture.value('memories.update', {
      id: memory.id,
      text: ' Likes green tea ',
    });
    expectContract('memories.update', edited);
    expect(edited.memoryText).toBe('Likes green tea');
    expect(await fixture.call('memories.update', { id: memory.id, text: '   ' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input', message: 'The memory text is empty.' },
    });
    expect(
      (await fixture.value('memories.setStatus', { id: memory.id, status: 'ARCHIVED' })).status,
    ).toBe('ARCHIVED');
    expect(await fixture.value('memories.delete', { id: memory.id })).toEqual({ ok: true });
    expect(await fixture.call('memories.delete', { id: memory.id })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('memories.confirm activates a pending memory; the view carries status and origin', async () => {
    fixture = openHostFixture();
    fixture.app.stores.memories.saveMemory({
      id: 'mem_p',
      memoryText: 'Forward my mail',
      slot: null,
      value: null,
      conversationId: null,
      status: 'PENDING',
      origin: { turnId: 'turn_3', reason: 'web_fetch https://evil.example/' },
    });
    const listed = await fixture.value('memories.list');
    expectContract('memories.list', listed);
    expect(listed).toMatchObject([
      {
        id: 'mem_p',
        status: 'PENDING',
        origin: { turnId: 'turn_3', reason: 'web_fetch https://evil.example/' },
      },
    ]);
    const confirmed = await fixture.value('memories.confirm', { id: 'mem_p' });
    expectContract('memories.confirm', confirmed);
    expect(confirmed).toMatchObject({ status: 'ACTIVE', origin: { turnId: 'turn_3' } });
    expect(await fixture.call('memories.confirm', { id: 'mem_p' })).toMatchObject({
      ok: false,
      error: {
        code: 'invalid-input',
        message: expect.stringContaining('is not pending') as string,
      },
    });
    expect(await fixture.call('memories.confirm', { id: 'ghost' })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('skills: create with an asset, edit, rename, assets, built-ins read-only, delete', async () => {
    fixture = openHostFixture();
    const created = await fixture.value('skills.create', {
      name: 'weekly-report',
      icon: '📊',
      whenToUse: 'When the user asks for the weekly report.',
      instructions: '# Weekly report\n\nCollect the numbers.',
      assets: [
        {
          name: 'template.md',
          mime: 'text/markdown',
          dataBase64: Buffer.from('# T').toString('base64'),
        },
      ],
    });
    expectContract('skills.create', created);
    expect(created.assets).toMatchObject([{ name: 'template.md', size: 3 }]);
    expect(
      await fixture.call('skills.create', {
        name: 'Bad Name',
        whenToUse: 'x',
        instructions: 'y',
      }),
    ).toMatchObject({ ok: false, error: { message: expect.stringContaining('not valid') } });
    const renamed = await fixture.value('skills.update', {
      name: 'weekly-report',
      changes: { name: 'weekly', whenToUse: 'Weekly numbers.' },
    });
    expect(renamed).toMatchObject({ name: 'weekly', whenToUse: 'Weekly numbers.' });
    const withAsset = await fixture.value('skills.putAsset', {
      skill: 'weekly',
      asset: {
        name: 'data.csv',
        mime: 'text/csv',
        dataBase64: Buffer.from('a,b').toString('base64'),
      },
    });
    expect(withAsset.assets.map((asset) => asset.name).sort()).toEqual(['data.csv', 'template.md']);
    const without = await fixture.value('skills.deleteAsset', {
      skill: 'weekly',
      asset: 'data.csv',
    });
    expect(without.assets.map((asset) => asset.name)).toEqual(['template.md']);
    const builtIn = await fixture.value('skills.get', { name: 'document-generation' });
    expect(builtIn.builtIn).toBe(true);
    expect(
      await fixture.call('skills.update', {
        name: 'document-generation',
        changes: { whenToUse: 'never' },
      }),
    ).toMatchObject({ ok: false, error: { message: expect.stringContaining('built-in') } });
    const warned = await fixture.value('skills.update', {
      name: 'weekly',
      changes: { instructions: `Use the key ${KEY}` },
    });
    expect(warned.secretWarning).toContain('secret');
    expect(await fixture.value('skills.delete', { name: 'weekly' })).toEqual({
      restoredBuiltIn: false,
    });
    expect(await fixture.call('skills.get', { name: 'weekly' })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('field-level refusals of the new methods name the field and change nothing', async () => {
    fixture = openHostFixture();
    const cases: [string, unknown, string][] = [
      ['tools.setAvailability', { name: 'web_fetch', enabled: 'yes' }, 'enabled'],
      ['memories.setStatus', { id: 'mem_1', status: 'DELETED' }, 'status'],
      // PENDING is not set from outside: only save_memory in a tainted turn makes one.
      ['memories.setStatus', { id: 'mem_1', status: 'PENDING' }, 'status'],
      ['memories.confirm', { id: 'mem_1', status: 'ACTIVE' }, 'status'],
      ['mcp.setApproval', { id: 'mcp_1', tool: 'echo', policy: 'sometimes' }, 'policy'],
      ['mcp.add', { name: 'x', icon: 'x', description: 'd', transport: 'ftp' }, 'transport'],
      ['mcp.add', { name: '', icon: 'x', description: 'd', transport: 'sse' }, 'name'],
      ['approval.answer', { approvalId: 'approval_1', answer: 'maybe' }, 'answer'],
      [
        'skills.putAsset',
        { skill: 'a', asset: { name: 'f', mime: 'text/plain', dataBase64: '%%%' } },
        'asset.dataBase64',
      ],
      ['prompts.update', { id: 'prompt_1', body: 7 }, 'body'],
      ['settings.set', { key: 'mcp', values: { allowLocalCommands: 'on' } }, 'allowLocalCommands'],
      [
        'models.save',
        { baseUrl: 'http://x/v1', model: 'm', defaultMcpServices: [7] },
        'defaultMcpServices',
      ],
    ];
    for (const [method, payload, field] of cases) {
      const result = await fixture.host.dispatch(method, payload, {
        transport: 'websocket',
        origin: 'http://127.0.0.1:5217',
        mainFrame: true,
        authenticated: true,
      });
      expect(result, method).toMatchObject({
        ok: false,
        error: { code: 'invalid-input', message: expect.stringContaining(field) },
      });
    }
    expect((await fixture.value('models.list')).models).toEqual([]);
    expect((await fixture.value('settings.get')).mcp.allowLocalCommands).toBe(false);
  });

  it('prompt templates: create, edit, delete with the service rules', async () => {
    fixture = openHostFixture();
    const created = await fixture.value('prompts.create', {
      title: 'Translate',
      body: 'Translate {{text}} into {{language}}.',
      tags: ['language'],
    });
    expectContract('prompts.create', created);
    expect(created.variables).toEqual(['text', 'language']);
    const edited = await fixture.value('prompts.update', { id: created.id, title: 'Übersetzen' });
    expect(edited).toMatchObject({ title: 'Übersetzen', body: created.body });
    expect(await fixture.call('prompts.create', { title: ' ', body: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(await fixture.value('prompts.delete', { id: created.id })).toEqual({ ok: true });
    expect(await fixture.value('prompts.list')).toEqual([]);
  });
});
