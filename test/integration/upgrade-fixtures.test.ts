/**
 * Upgrades from real old databases (issue 42, item 2): each fixture in test/fixtures/upgrade/ was
 * written by a past build's own store code (scripts/upgrade-fixtures/make.ts), with a manifest of
 * what it wrote read back through that build. Today's build opens a copy — every migration path
 * from that version — and must read back the same: the schema at the latest version, the file
 * sound (integrity and foreign keys), the rows per table and every value the old build stored,
 * through today's store ports; the real CLI then lists, answers in and shows an upgraded
 * conversation.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/main/adapters/sqlite/migrations';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { SettingsService } from '../../src/main/services/settings-service';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, runCli } from '../support/run-cli';

const FIXTURES = fileURLToPath(new URL('../fixtures/upgrade/', import.meta.url));
const LATEST = MIGRATIONS.length;
const CLI_TEST = { timeout: 90_000 };

/** What write-fixture.ts recorded (see its `readManifest`). */
interface Manifest {
  era: { commit: string; subject: string };
  schemaVersion: number;
  counts: Record<string, number>;
  conversations: { id: string }[];
  messages: Record<string, { id: string }[]>;
  shownPath: Record<string, string[]>;
  versions: Record<string, Record<string, string[]>> | null;
  turnRecords: Record<string, { id: string }[]>;
  memories: { id: string }[];
  models: { id: string }[];
  settings: Record<string, unknown>;
  toolAvailability: Record<string, boolean>;
  skills: ({ name: string; assetText: string } & Record<string, unknown>)[];
  promptTemplates: { id: string }[];
  mcp: {
    services: { id: string }[];
    tools: Record<string, unknown[]>;
    roots: Record<string, unknown[]> | null;
    serverFeatures: Record<string, unknown> | null;
    allowedForConversation: [string, string, string, boolean][];
  };
}

const fixtures = readdirSync(FIXTURES)
  .filter((name) => /^v\d+\.db$/.test(name))
  .map((name) => Number(name.slice(1, -3)))
  .sort((left, right) => left - right);

function manifestOf(version: number): Manifest {
  return JSON.parse(readFileSync(join(FIXTURES, `v${version}.json`), 'utf8')) as Manifest;
}

const byId = <T extends { id: string }>(items: readonly T[]): T[] =>
  [...items].sort((left, right) => left.id.localeCompare(right.id));

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** A copy of the fixture as the data directory's database (the fixture itself stays as made). */
function copyFixture(version: number): { home: string; path: string } {
  const home = mkdtempSync(join(tmpdir(), `aivory-upgrade-v${version}-`));
  directories.push(home);
  const path = join(home, 'aivory.db');
  copyFileSync(join(FIXTURES, `v${version}.db`), path);
  return { home, path };
}

function readPragma(path: string, pragma: string): unknown {
  const database = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return database.pragma(pragma);
  } finally {
    database.close();
  }
}

describe('upgrade fixtures', () => {
  it('a fixture was written at the version before the latest migration', () => {
    // Adding migration N+1 needs a database a build at N wrote, or its upgrade path is untested.
    const needed = LATEST - 1;
    expect(
      fixtures.includes(needed),
      `Migration ${String(LATEST).padStart(3, '0')} has no upgrade fixture written before it: ` +
        `add { version: ${needed}, commit: <the last commit of main with ${needed} migrations> } ` +
        `to ERAS in scripts/upgrade-fixtures/make.ts, run ` +
        `"node --import tsx scripts/upgrade-fixtures/make.ts ${needed}" and commit ` +
        `test/fixtures/upgrade/v${needed}.db and v${needed}.json.`,
    ).toBe(true);
    expect(fixtures[0]).toBe(1);
  });

  describe.each(fixtures)('a database written at schema v%i', (version) => {
    const manifest = manifestOf(version);
    let store: SqliteStore | null = null;
    afterEach(() => {
      store?.close();
      store = null;
    });

    it('opens at the latest version, sound, with every row and value kept', () => {
      const { path } = copyFixture(version);
      expect(readPragma(path, 'user_version')).toEqual([{ user_version: manifest.schemaVersion }]);
      expect(manifest.schemaVersion).toBe(version);

      store = openStore(path);
      const { conversations, memories, settings, library, mcp } = store;
      const check = new Database(path, { readonly: true });
      try {
        expect(check.pragma('user_version', { simple: true })).toBe(LATEST);
        expect(check.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
        expect(check.pragma('foreign_key_check')).toEqual([]);
        for (const [table, count] of Object.entries(manifest.counts)) {
          const now = check.prepare(`SELECT count(*) FROM "${table}"`).pluck().get();
          expect(now, `rows in ${table}`).toBe(count);
        }
      } finally {
        check.close();
      }

      // Today's objects may carry fields the old build did not have; every old one must match.
      expect(byId(conversations.listConversations())).toMatchObject(byId(manifest.conversations));
      for (const { id } of manifest.conversations) {
        const all = conversations.listAllMessages(id);
        expect(byId(all), `messages of ${id}`).toMatchObject(byId(manifest.messages[id] ?? []));
        const shown = conversations.listMessages(id);
        expect(shown.map((message) => message.id)).toEqual(manifest.shownPath[id]);
        // The path is a chain of parents (for files older than 010, made by that migration).
        expect(shown.map((message) => message.parentId)).toEqual([
          null,
          ...shown.slice(0, -1).map((message) => message.id),
        ]);
        expect(conversations.listVersions(id)).toEqual(manifest.versions?.[id] ?? {});
        expect(conversations.listTurnRecords(id)).toMatchObject(manifest.turnRecords[id] ?? []);
      }
      expect(conversations.searchMessages('Lisbon').map((hit) => hit.conversationId)).toContain(
        'conv-trip',
      );

      expect(byId(memories.listMemories())).toMatchObject(byId(manifest.memories));
      expect(byId(settings.listModels())).toMatchObject(byId(manifest.models));
      for (const [key, value] of Object.entries(manifest.settings)) {
        expect(settings.getSetting(key), `setting ${key}`).toEqual(value);
      }
      expect(settings.getToolAvailability()).toEqual(manifest.toolAvailability);
      // Today's schemas take the old values whole (a field that no longer fits is logged, reset).
      const warnings: string[] = [];
      const logger = {
        debug() {},
        info() {},
        error() {},
        warn: (text: string) => warnings.push(text),
      };
      const service = new SettingsService(settings, logger, 8192);
      expect(service.get('search')).toMatchObject(manifest.settings.search ?? {});
      expect(service.get('sandbox')).toMatchObject(manifest.settings.sandbox ?? {});
      expect(warnings).toEqual([]);

      const skills = library.listSkills().filter((skill) => !skill.builtIn);
      expect(skills).toMatchObject(
        manifest.skills.map(({ assetText: _assetText, ...skill }) => skill),
      );
      for (const skill of manifest.skills) {
        const asset = library.readSkillAsset(skill.name, 'template.md');
        expect(new TextDecoder().decode(asset ?? new Uint8Array())).toBe(skill.assetText);
      }
      expect(byId(library.listPromptTemplates())).toMatchObject(byId(manifest.promptTemplates));

      expect(byId(mcp.listServices())).toMatchObject(byId(manifest.mcp.services));
      for (const { id } of manifest.mcp.services) {
        expect(mcp.listTools(id), `tools of ${id}`).toMatchObject(manifest.mcp.tools[id] ?? []);
        expect(mcp.listRoots(id)).toEqual(manifest.mcp.roots?.[id] ?? []);
        expect(mcp.getServerFeatures(id)).toEqual(manifest.mcp.serverFeatures?.[id] ?? null);
      }
      for (const [conversation, service, tool, allowed] of manifest.mcp.allowedForConversation) {
        expect(mcp.isAllowedForConversation(conversation, service, tool)).toBe(allowed);
      }
    });
  });
});

describe('the CLI on upgraded databases', () => {
  let server: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it.each(fixtures)(
    'lists, answers in and shows a conversation first written at v%i',
    CLI_TEST,
    async (version) => {
      const manifest = manifestOf(version);
      const { home, path } = copyFixture(version);
      server = await startScriptedLlmServer([{ content: 'Glad the trip is planned.' }]);
      const env = cliEnv(home);

      const listed = await runCli(['conversations', 'list', '--json'], env);
      expect(listed.code, listed.stderr).toBe(0);
      const rows = JSON.parse(listed.stdout) as { id: string; title: string }[];
      expect(byId(rows)).toMatchObject(byId(manifest.conversations).map(({ id }) => ({ id })));

      const added = await runCli(
        [
          'models',
          'add',
          '--base-url',
          server.baseUrl,
          '--model',
          'scripted-model',
          '--label',
          'Scripted',
        ],
        env,
      );
      expect(added.code, added.stderr).toBe(0);
      const chat = await runCli(
        [
          'chat',
          '--conversation',
          'conv-trip',
          '--base-url',
          server.baseUrl,
          '--model',
          'scripted-model',
          '--tools',
          'none',
          'Thanks!',
        ],
        env,
      );
      expect(chat.code, chat.stderr).toBe(0);
      expect(chat.stdout).toContain('Glad the trip is planned.');
      // The history sent is the upgraded conversation's shown path.
      const sent = JSON.stringify(server.requests.at(-1)?.body.messages);
      expect(sent).toContain('What is the weather in Lisbon in May?');
      expect(sent).toContain('Yes: pack a light jacket for the evenings.');

      const shown = await runCli(['conversations', 'show', 'conv-trip'], env);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('web_fetch');
      expect(shown.stdout).toContain('Glad the trip is planned.');
      expect(readPragma(path, 'integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    },
  );
});
