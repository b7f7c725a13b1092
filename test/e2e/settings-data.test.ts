/**
 * Settings → Data in the browser host (issue 42, item 6): "Export all conversations" writes a ZIP
 * that downloads like a one-conversation export; the archive holds a folder per conversation
 * with its document and its files, and an index. Progress is shown as it goes. The page at
 * 1440×900, 720×480 and 390 wide, light and dark (docs/screenshots/settings-data-*.png), with no
 * serious axe violation and nothing wider than the window.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { seriousViolations } from './helpers/axe';
import { useAppFixture } from './helpers/app-fixture';
import { downloadedBytes, screenshot } from './helpers/browser';

const ITINERARY = 'Day 1: Lisbon\nDay 2: Sintra\n';

/** Three conversations written by the test into serve's database, one with an attachment. */
function seed(home: string): string {
  const store = openStore(join(home, 'aivory.db'));
  try {
    const uploads = join(home, 'uploads', 'c-trip');
    mkdirSync(uploads, { recursive: true });
    const path = join(uploads, 'itinerary.txt');
    writeFileSync(path, ITINERARY);
    const conversations = store.conversations;
    const add = (id: string, title: string, text: string, attach = false) => {
      conversations.createConversation({ id, title, modelId: null });
      conversations.createMessage({
        id: `${id}-q`,
        conversationId: id,
        role: 'user',
        status: 'complete',
        parts: [
          { kind: 'text', text },
          ...(attach
            ? [
                {
                  kind: 'attachment' as const,
                  attachment: { name: 'itinerary.txt', path, mime: 'text/plain', size: 28 },
                },
              ]
            : []),
        ],
      });
      conversations.createMessage({
        id: `${id}-a`,
        conversationId: id,
        role: 'assistant',
        status: 'complete',
        parts: [{ kind: 'text', text: `About ${title}.` }],
      });
    };
    add('c-trip', 'Trip plan', 'Plan my trip', true);
    add('c-trip-2', 'Trip plan', 'Another one');
    add('c-hebrew', 'שלום עולם', 'Say hello');
    return path;
  } finally {
    store.close();
  }
}

async function openDataPage(page: Page): Promise<void> {
  await page.getByTestId('settings-open').click();
  await page.getByTestId('settings-nav-data').click();
  await page.getByTestId('settings-page-data').waitFor();
}

/** Exports in `format` from the page; returns the archive's files by name. */
async function exportAll(page: Page, format: 'md' | 'json'): Promise<Record<string, Uint8Array>> {
  await page.getByTestId('export-all-format').selectOption(format);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-all-start').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^aivory-conversations-\\d{4}-\\d\\d-\\d\\d-${format}\\.zip$`),
  );
  return unzipSync(new Uint8Array(await downloadedBytes(download)));
}

/** Nothing on the page reaches past the window's right edge. */
async function widest(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('e2e: Settings → Data exports every conversation', () => {
  const app = useAppFixture(() => ({ content: 'ok' }));
  let attachmentPath = '';
  beforeAll(() => {
    attachmentPath = seed(app().serve.home);
  });

  it('downloads a ZIP of every conversation with its files, in Markdown and JSON', async () => {
    const { page } = app().browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(app().serve.url);
    await openDataPage(page);
    expect(await seriousViolations(page, '[data-testid="settings-page-data"]')).toEqual([]);
    await screenshot(page, 'settings-data-1440-light');

    // The host's progress events, as the page's WebSocket receives them.
    const progress: string[] = [];
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string' && payload.includes('"exports.progress"'))
          progress.push(payload);
      }),
    );
    await page.reload();
    await openDataPage(page);
    // Every text the status line shows, as it shows it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { exportTexts: string[] }).exportTexts = seen;
      new MutationObserver(() => {
        const status = document.querySelector('[data-testid="export-all"] [role="status"]');
        if (status?.textContent && seen.at(-1) !== status.textContent)
          seen.push(status.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const markdown = await exportAll(page, 'md');
    const names = Object.keys(markdown).sort();
    expect(names).toEqual(
      [
        'Trip plan/conversation.md',
        'Trip plan/files/itinerary.txt',
        'Trip plan (2)/conversation.md',
        'שלום עולם/conversation.md',
        'index.md',
      ].sort(),
    );
    const text = (name: string) => new TextDecoder().decode(markdown[name]);
    expect(text('Trip plan/files/itinerary.txt')).toBe(ITINERARY);
    expect(text('Trip plan/conversation.md')).toContain(
      '**Attachment** [itinerary.txt](files/itinerary.txt) (text/plain, 28 bytes)',
    );
    expect(text('Trip plan/conversation.md')).not.toContain(attachmentPath);
    expect(text('שלום עולם/conversation.md')).toMatch(/^# שלום עולם\n/);
    expect(text('index.md')).toContain('· 3 conversations');
    const done = page.getByTestId('export-all-done');
    await done.waitFor();
    expect(await done.textContent()).toContain('Exported — conversations: 3, files: 1,');
    const texts = await page.evaluate(
      () => (window as unknown as { exportTexts: string[] }).exportTexts,
    );
    // Shown at once; the counts follow as events (React may draw only the last before "done").
    expect(texts[0]).toBe('Preparing…');
    expect(progress.map((frame) => /"done":(\d+),"total":(\d+)/.exec(frame)?.slice(1))).toEqual([
      ['0', '3'],
      ['1', '3'],
      ['2', '3'],
      ['3', '3'],
    ]);
    await screenshot(page, 'settings-data-1440-light-done');

    const json = await exportAll(page, 'json');
    const index = JSON.parse(new TextDecoder().decode(json['index.json'])) as {
      conversations: { title: string; document: string; files: { path: string }[] }[];
    };
    expect(index.conversations.map((entry) => entry.document)).toEqual([
      'Trip plan/conversation.json',
      'Trip plan (2)/conversation.json',
      'שלום עולם/conversation.json',
    ]);
    expect(index.conversations[0]?.files).toEqual([
      expect.objectContaining({ path: 'Trip plan/files/itinerary.txt' }),
    ]);
    const trip = JSON.parse(new TextDecoder().decode(json['Trip plan/conversation.json'])) as {
      conversation: { title: string };
      messages: unknown[];
    };
    expect(trip.conversation.title).toBe('Trip plan');
    expect(trip.messages).toHaveLength(2);
  });

  it('fits at 1440×900 dark, 720×480 and 390 wide, light and dark', async () => {
    const { page } = app().browser;
    // Opened wide (narrow windows hide the sidebar's settings button), then resized in place.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(app().serve.url);
    await openDataPage(page);
    for (const [width, height, scheme, name] of [
      [1440, 900, 'dark', 'settings-data-1440-dark'],
      [720, 480, 'light', 'settings-data-720-light'],
      [720, 480, 'dark', 'settings-data-720-dark'],
      [390, 844, 'light', 'settings-data-390-light'],
      [390, 844, 'dark', 'settings-data-390-dark'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await page.getByTestId('export-all-start').scrollIntoViewIfNeeded();
      expect(await widest(page), name).toBeLessThanOrEqual(0);
      const button = await page.getByTestId('export-all-start').boundingBox();
      expect(button && button.x + button.width <= width, name).toBe(true);
      await screenshot(page, name);
    }
  });
});
