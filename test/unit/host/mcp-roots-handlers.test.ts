/**
 * The `mcpRoots.*` handlers over a real AppContext (no connection is opened: the service is never
 * used): list / add / remove with the contract's shapes and the service's refusals as
 * invalid-input, malformed payloads refused, and the folder picker — Electron's dialog through
 * `createFolderPicker` on the desktop, refused by the browser host.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createFolderPicker } from '../../../src/main/electron/folder-picker';
import type { ShowOpenDialog } from '../../../src/main/electron/folder-picker';
import { createApiHost } from '../../../src/main/host/api-handlers';
import { invokeContract } from '../../../src/shared/ipc-contract';
import type { InvokeMethod } from '../../../src/shared/ipc-contract';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture, TRUSTED_ORIGIN, TRUSTED_SENDER } from '../../support/host/host-fixture';

const folders = realpathSync(mkdtempSync(join(tmpdir(), 'aivory-roots-host-')));
afterAll(() => rmSync(folders, { recursive: true, force: true }));

function expectContract(method: InvokeMethod, value: unknown): void {
  const parsed = invokeContract[method].response.safeParse(value);
  expect(parsed.success, `${method}: ${JSON.stringify(parsed.error?.issues ?? [])}`).toBe(true);
}

describe('MCP roots handlers', () => {
  let fixture: HostFixture;

  afterEach(async () => {
    await fixture?.close();
  });

  async function addService(): Promise<string> {
    const added = await fixture.value('mcp.add', {
      name: 'files',
      icon: '📁',
      description: 'Reads files.',
      transport: 'streamable-http',
      url: 'http://127.0.0.1:9/mcp',
    });
    return added.service.id;
  }

  it('lists, adds and removes folders; refusals are invalid-input', async () => {
    fixture = openHostFixture();
    const id = await addService();
    const empty = await fixture.value('mcpRoots.list', { id });
    expectContract('mcpRoots.list', empty);
    expect(empty).toEqual({ roots: [], max: 32 });

    const notes = join(folders, 'notes');
    mkdirSync(notes);
    const added = await fixture.value('mcpRoots.add', { id, path: notes, name: 'Notes' });
    expectContract('mcpRoots.add', added);
    expect(added.roots).toEqual([{ path: notes, name: 'Notes' }]);
    expect(await fixture.value('mcpRoots.list', { id })).toEqual(added);

    const file = join(folders, 'file.txt');
    writeFileSync(file, 'x');
    for (const [path, message] of [
      [file, 'is a file, not a folder'],
      [join(folders, 'gone'), 'There is no folder at'],
      ['notes', 'absolute path'],
      [notes, 'already shared'],
    ] as const) {
      const result = await fixture.call('mcpRoots.add', { id, path });
      expect(result, path).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
      if (!result.ok) expect(result.error.message).toContain(message);
    }
    const unknown = await fixture.call('mcpRoots.add', { id: 'mcp_nobody', path: notes });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not-found' } });
    for (const payload of [{ id, path: '' }, { id, path: notes, extra: 1 }, { id }]) {
      expect(await fixture.call('mcpRoots.add', payload as never)).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
    }

    const removed = await fixture.value('mcpRoots.remove', { id, path: notes });
    expectContract('mcpRoots.remove', removed);
    expect(removed.roots).toEqual([]);
    expect(await fixture.call('mcpRoots.remove', { id, path: notes })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('the browser host has no folder picker', async () => {
    fixture = openHostFixture();
    const result = await fixture.call('mcpRoots.pickFolder', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'config' } });
    if (!result.ok) expect(result.error.message).toContain('type its path');
  });

  it("the desktop's picker: Electron's dialog for one folder, null when canceled", async () => {
    fixture = openHostFixture();
    const asked: Parameters<ShowOpenDialog>[0][] = [];
    let answer = { canceled: false, filePaths: [join(folders, 'picked')] };
    const host = createApiHost(fixture.app, {
      env: {},
      policy: { allowedOrigins: [TRUSTED_ORIGIN] },
      desktop: {
        openPath: () => Promise.resolve(''),
        showItemInFolder: () => undefined,
        pickFolder: createFolderPicker((options) => {
          asked.push(options);
          return Promise.resolve(answer);
        }),
      },
    });
    const picked = await host.dispatch('mcpRoots.pickFolder', {}, TRUSTED_SENDER);
    expect(picked).toEqual({ ok: true, value: { path: join(folders, 'picked') } });
    expect(asked[0]?.properties).toContain('openDirectory');
    answer = { canceled: true, filePaths: [] };
    expect(await host.dispatch('mcpRoots.pickFolder', undefined, TRUSTED_SENDER)).toEqual({
      ok: true,
      value: { path: null },
    });
    expect(
      await host.dispatch('mcpRoots.pickFolder', {}, { ...TRUSTED_SENDER, mainFrame: false }),
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });
});
