/** Pinning conversations: the store column (migration 012), `conversations.pin`, the CLI. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { AivoryError } from '../../src/shared/errors';
import type { HostFixture } from '../support/host/host-fixture';
import { openHostFixture } from '../support/host/host-fixture';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

describe('conversation pins', () => {
  let directory: string;
  let store: SqliteStore;
  let now: number;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'aivory-pins-'));
    now = 1_000;
    store = openStore(join(directory, 'aivory.db'), { clock: { now: () => now } });
  });

  afterEach(() => {
    store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('pins and unpins without touching the order by activity', () => {
    const conversations = store.conversations;
    conversations.createConversation({ id: 'old', title: 'Old', modelId: null });
    now = 2_000;
    conversations.createConversation({ id: 'new', title: 'New', modelId: null });
    expect(conversations.getConversation('old')?.pinnedAt).toBeNull();

    now = 3_000;
    conversations.setConversationPinned('old', true);
    const pinned = conversations.getConversation('old');
    expect(pinned).toMatchObject({ pinnedAt: 3_000, updatedAt: 1_000 });
    // Still ordered by activity: the pin is not activity.
    expect(conversations.listConversations().map((item) => [item.id, item.pinnedAt])).toEqual([
      ['new', null],
      ['old', 3_000],
    ]);

    // Pinning again keeps the first pin time.
    now = 4_000;
    conversations.setConversationPinned('old', true);
    expect(conversations.getConversation('old')?.pinnedAt).toBe(3_000);

    conversations.setConversationPinned('old', false);
    expect(conversations.getConversation('old')).toMatchObject({
      pinnedAt: null,
      updatedAt: 1_000,
    });
  });

  it('an unknown conversation is not-found', () => {
    expect(() => store.conversations.setConversationPinned('missing', true)).toThrow(AivoryError);
    expect(() => store.conversations.setConversationPinned('missing', false)).toThrow(/missing/);
  });
});

describe('conversations.pin and aivory conversations pin/unpin', () => {
  let fixture: HostFixture;

  afterEach(async () => {
    await fixture.close();
  });

  it('the contract method pins, unpins and refuses bad payloads', async () => {
    fixture = openHostFixture();
    fixture.app.stores.conversations.createConversation({ id: 'c1', title: 'One', modelId: null });
    const pinned = await fixture.value('conversations.pin', { id: 'c1', pinned: true });
    expect(pinned.pinnedAt).toEqual(expect.any(Number));
    expect((await fixture.value('conversations.list'))[0]?.pinnedAt).toBe(pinned.pinnedAt);
    const unpinned = await fixture.value('conversations.pin', { id: 'c1', pinned: false });
    expect(unpinned.pinnedAt).toBeNull();
    expect(await fixture.call('conversations.pin', { id: 'nope', pinned: true })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    for (const payload of [
      { id: 'c1' },
      { id: 'c1', pinned: 'yes' },
      { id: 'c1', pinned: true, x: 1 },
    ]) {
      const result = await fixture.host.dispatch('conversations.pin', payload, {
        transport: 'websocket',
        origin: 'http://127.0.0.1:5217',
        mainFrame: true,
        authenticated: true,
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
  });
});

describe('aivory conversations pin / unpin', () => {
  it('pins, marks the list, unpins', async () => {
    const home = makeDataDir();
    try {
      const store = openStore(join(home, 'aivory.db'));
      store.conversations.createConversation({ id: 'c1', title: 'Keep me', modelId: null });
      store.conversations.createConversation({ id: 'c2', title: 'Other', modelId: null });
      store.close();

      const pin = await runCli(['conversations', 'pin', 'c1'], cliEnv(home));
      expect(pin).toMatchObject({ code: 0 });
      expect(pin.stdout).toContain('Pinned c1');
      const listed = await runCli(['conversations', 'list'], cliEnv(home));
      const lines = listed.stdout.trim().split('\n');
      expect(lines.find((line) => line.startsWith('c1'))).toMatch(/\tpinned\tKeep me$/);
      expect(lines.find((line) => line.startsWith('c2'))).toMatch(/\t\tOther$/);
      const json = await runCli(['conversations', 'list', '--json'], cliEnv(home));
      const parsed = JSON.parse(json.stdout) as { id: string; pinnedAt: number | null }[];
      expect(parsed.find((item) => item.id === 'c1')?.pinnedAt).toEqual(expect.any(Number));

      const unpin = await runCli(['conversations', 'unpin', 'c1'], cliEnv(home));
      expect(unpin).toMatchObject({ code: 0 });
      const after = await runCli(['conversations', 'list'], cliEnv(home));
      expect(after.stdout).not.toContain('pinned');

      const missing = await runCli(['conversations', 'pin', 'nope'], cliEnv(home));
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('nope');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);
});
