/**
 * MCP roots end to end with the real server-everything, over stdio and Streamable HTTP: a service
 * sharing nothing does not announce roots (the server offers no `get-roots-list`); a shared folder
 * comes back from the server's `get-roots-list` as its file:// URL (the connection opened without
 * roots is reopened announcing them); a folder added while connected reaches the server through
 * `notifications/roots/list_changed` on the same connection. Plus the service's rules on real
 * folders: missing, a file, a symlink (stored resolved), duplicates, the cap, removal, and the
 * roots going with their service.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { McpSession } from '../../src/main/core/ports';
import type { McpServices } from '../../src/main/services/mcp/mcp-services';
import { MAX_MCP_ROOTS } from '../../src/shared/mcp-roots';
import type { EverythingServer } from '../support/mcp-everything-server';
import { EVERYTHING_SCRIPT, startEverythingServer } from '../support/mcp-everything-server';
import { localMcpServices } from '../support/local-mcp-services';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'aivory-mcp-roots-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh data directory and folders to share. */
function setUp(label: string): { home: string; notes: string; photos: string } {
  const base = join(root, label);
  const notes = join(base, 'My notes #1');
  const photos = join(base, 'photos');
  mkdirSync(notes, { recursive: true });
  mkdirSync(photos, { recursive: true });
  mkdirSync(join(base, 'home'));
  return { home: join(base, 'home'), notes, photos };
}

/** Server log lines handed to the service's log, with a way to wait for one. */
function serverLog(): {
  sink: (serviceId: string, line: string) => void;
  next: (pattern: RegExp) => Promise<string>;
} {
  const lines: string[] = [];
  const waiting: { pattern: RegExp; done: (line: string) => void }[] = [];
  return {
    sink: (_serviceId, line) => {
      lines.push(line);
      for (const waiter of [...waiting]) {
        if (waiter.pattern.test(line)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.done(line);
        }
      }
    },
    next: (pattern) => new Promise((done) => waiting.push({ pattern, done })),
  };
}

async function rootsText(session: McpSession, signal: AbortSignal): Promise<string> {
  const result = await session.callTool(
    'get-roots-list',
    {},
    { signal, timeoutMs: 20_000, maxTotalTimeoutMs: 20_000, maxOutputChars: 20_000 },
  );
  expect(result.isError).toBe(false);
  return result.text;
}

describe.each(['stdio', 'streamableHttp'] as const)(
  'MCP roots with server-everything (%s)',
  (mode) => {
    let server: EverythingServer | null = null;

    beforeAll(async () => {
      if (mode === 'streamableHttp') server = await startEverythingServer('streamableHttp');
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    async function addEverything(mcp: McpServices): Promise<void> {
      await mcp.add(
        server === null
          ? {
              name: 'everything',
              transport: 'stdio',
              command: process.execPath,
              args: [EVERYTHING_SCRIPT, 'stdio'],
              description: 'The reference server',
            }
          : {
              name: 'everything',
              transport: 'streamable-http',
              url: server.url,
              description: 'The reference server',
            },
      );
    }

    it('no roots: not announced; a shared folder reaches the server; list_changed while connected', async () => {
      const { home, notes, photos } = setUp(`flow-${mode}`);
      const log = serverLog();
      const mcp = localMcpServices(home, { stderrSink: log.sink });
      const signal = AbortSignal.timeout(80_000);
      try {
        await addEverything(mcp);
        const service = mcp.get('everything');
        expect(mcp.roots('everything')).toEqual([]);
        const bare = await mcp.session(service, signal);
        const bareTools = (await bare.listTools(signal)).map((tool) => tool.name);
        expect(bareTools).toContain('echo');
        expect(bareTools).not.toContain('get-roots-list');

        // The connection announced no roots: it is closed, the next one announces them.
        const firstList = log.next(/Roots updated: 1 root/);
        expect(await mcp.addRoot('everything', notes, 'Notes')).toEqual([
          { path: notes, name: 'Notes' },
        ]);
        const session = await mcp.session(service, signal);
        expect(session).not.toBe(bare);
        expect((await session.listTools(signal)).map((tool) => tool.name)).toContain(
          'get-roots-list',
        );
        await firstList;
        const first = await rootsText(session, signal);
        expect(first).toContain(`URI: ${pathToFileURL(notes).href}`);
        expect(first).toContain('My%20notes%20%231');
        expect(first).toContain('1. Notes');

        // Added while connected: list_changed, the server asks again, same connection.
        const secondList = log.next(/Roots updated: 2 root/);
        await mcp.addRoot('everything', photos);
        await secondList;
        expect(await mcp.session(service, signal)).toBe(session);
        const second = await rootsText(session, signal);
        expect(second).toContain(`URI: ${pathToFileURL(notes).href}`);
        expect(second).toContain(`URI: ${pathToFileURL(photos).href}`);
        expect(second).toContain('2. Unnamed Root');

        // Removed while connected: the same way.
        const thirdList = log.next(/Roots updated: 1 root/);
        expect(await mcp.removeRoot('everything', notes)).toEqual([{ path: photos }]);
        await thirdList;
        const third = await rootsText(session, signal);
        expect(third).not.toContain(pathToFileURL(notes).href);
        expect(third).toContain(pathToFileURL(photos).href);
      } finally {
        await mcp.close();
      }
    }, 90_000);
  },
);

describe('MCP roots: the rules', () => {
  it('refuses a missing path, a file, a relative path, duplicates and more than the cap; resolves symlinks', async () => {
    const { home, notes } = setUp('rules');
    const mcp = localMcpServices(home);
    try {
      await mcp.add({
        name: 'files',
        transport: 'streamable-http',
        url: 'http://127.0.0.1:9/mcp',
        description: 'Never connected',
      });
      await expect(mcp.addRoot('files', join(notes, 'missing'))).rejects.toThrow(/no folder at/);
      const file = join(notes, 'a.txt');
      writeFileSync(file, 'x');
      await expect(mcp.addRoot('files', file)).rejects.toThrow(/is a file, not a folder/);
      await expect(mcp.addRoot('files', 'relative/dir')).rejects.toThrow(/absolute path/);
      await expect(mcp.addRoot('files', '')).rejects.toThrow(/path is required/);
      await expect(mcp.addRoot('files', notes, 'two\nlines')).rejects.toThrow(/one line/);
      await expect(mcp.addRoot('nobody', notes)).rejects.toThrow(/No MCP service/);

      const link = join(root, 'rules', 'link-to-notes');
      symlinkSync(notes, link);
      expect(await mcp.addRoot('files', `${link}/`, '  Notes  ')).toEqual([
        { path: notes, name: 'Notes' },
      ]);
      await expect(mcp.addRoot('files', notes)).rejects.toThrow(/already shared/);
      await expect(mcp.addRoot('files', join(notes, '..', 'My notes #1'))).rejects.toThrow(
        /already shared/,
      );

      for (let index = 1; index < MAX_MCP_ROOTS; index += 1) {
        const dir = join(root, 'rules', 'many', String(index));
        mkdirSync(dir, { recursive: true });
        await mcp.addRoot('files', dir);
      }
      expect(mcp.roots('files')).toHaveLength(MAX_MCP_ROOTS);
      const extra = join(root, 'rules', 'many', 'extra');
      mkdirSync(extra);
      await expect(mcp.addRoot('files', extra)).rejects.toThrow(/most it can have/);

      // Removal by the stored path or by a path resolving to it; an unknown one is not-found.
      await expect(mcp.removeRoot('files', extra)).rejects.toThrow(/is not shared/);
      await mcp.removeRoot('files', link);
      expect(mcp.roots('files').map((entry) => entry.path)).not.toContain(notes);
      await mcp.addRoot('files', extra);
      expect(mcp.roots('files').at(-1)).toEqual({ path: extra });
    } finally {
      await mcp.close();
    }
  });

  it('keeps the roots in the database and removes them with their service', async () => {
    const { home, notes, photos } = setUp('storage');
    const mcp = localMcpServices(home);
    try {
      const { service } = await mcp.add({
        name: 'files',
        transport: 'streamable-http',
        url: 'http://127.0.0.1:9/mcp',
        description: 'Never connected',
      });
      await mcp.addRoot('files', notes, 'Notes');
      await mcp.addRoot('files', photos);
      const reopened = openStore(join(home, 'aivory.db'));
      try {
        expect(reopened.mcp.listRoots(service.id)).toEqual([
          { path: notes, name: 'Notes' },
          { path: photos },
        ]);
        await mcp.remove('files');
        expect(reopened.mcp.listRoots(service.id)).toEqual([]);
        expect(() => reopened.mcp.setRoots(service.id, [{ path: notes }])).toThrow(
          /No MCP service/,
        );
      } finally {
        reopened.close();
      }
    } finally {
      await mcp.close();
    }
  });
});
