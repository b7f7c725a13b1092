/**
 * A long conversation opens from its end: only its latest page is read and only the latest
 * messages are rendered at first; scrolling up renders the earlier ones and reads the pages
 * before, in order, with nothing missing or twice; a search hit far back opens the conversation
 * at that message. (bench/ui measures the times; nothing here is timed.)
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { TestBrowser } from './helpers/browser';
import { openBrowser } from './helpers/browser';
import type { RunningServe } from './helpers/serve-process';
import { serveAt } from './helpers/serve-process';

const MESSAGES = 3000;
/** A message far back (not in the first page) that the search test jumps to. */
const SEARCHED = 17;

/**
 * Writes a conversation of MESSAGES alternating messages into `home`'s database. Written in
 * memory-backed /dev/shm when there is one (each message is its own synced transaction), then
 * copied into `home` before serve opens it.
 */
function seedLongConversation(home: string): void {
  const scratch = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'aivory-e2e-'));
  try {
    const store = openStore(join(scratch, 'aivory.db'));
    try {
      store.conversations.createConversation({ id: 'conv_long', title: 'Long one', modelId: null });
      for (let index = 0; index < MESSAGES; index += 1) {
        store.conversations.createMessage({
          id: `conv_long_${index}`,
          conversationId: 'conv_long',
          role: index % 2 === 0 ? 'user' : 'assistant',
          status: 'complete',
          parts: [{ kind: 'text', text: `Message number ${index}.\n\nTag q${index}z.` }],
        });
      }
    } finally {
      store.close();
    }
    copyFileSync(join(scratch, 'aivory.db'), join(home, 'aivory.db'));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

describe('e2e: a long conversation renders from its end', () => {
  let home: string;
  let serve: RunningServe | undefined;
  let browser: TestBrowser;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'aivory-e2e-'));
    seedLongConversation(home);
    serve = await serveAt(home, { AIVORY_BASE_URL: 'http://127.0.0.1:9/v1', AIVORY_MODEL: 'm' });
    browser = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  const rendered = () =>
    browser.page.locator('[data-testid="message-user"], [data-testid="message-assistant"]');
  /** The numbers of the rendered messages, top to bottom. */
  const renderedNumbers = () =>
    rendered().evaluateAll((elements) =>
      elements.map((element) =>
        Number(/Message number (\d+)\./.exec(element.textContent ?? '')?.[1]),
      ),
    );

  it('shows the latest messages first and the earlier ones, in order, on scrolling up', async () => {
    const { page } = browser;
    await page.goto(serve?.url ?? '');
    await page.getByTestId('conversation-item').filter({ hasText: 'Long one' }).click();
    await page.getByText(`Message number ${MESSAGES - 1}.`).waitFor();
    const first = await rendered().count();
    expect(first).toBeGreaterThan(10);
    expect(first).toBeLessThan(200);
    const list = page.getByTestId('messages');
    // One scroll to the top adds earlier messages above and keeps the view where it was (the
    // reader is not thrown to the very top). Checked on that single step: later scrolls by the
    // test itself would reset scrollTop to 0.
    await list.evaluate((element) => (element.scrollTop = 0));
    await expect.poll(() => rendered().count(), { timeout: 15_000 }).toBeGreaterThan(first);
    expect(await list.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    // Up through every page.
    await expect
      .poll(
        async () => {
          await list.evaluate((element) => (element.scrollTop = 0));
          return rendered().count();
        },
        { timeout: 120_000, interval: 100 },
      )
      .toBe(MESSAGES);
    expect(await renderedNumbers()).toEqual(Array.from({ length: MESSAGES }, (_, index) => index));
  }, 180_000);

  it('a search hit far back opens the conversation at that message', async () => {
    const { page } = browser;
    await page.goto(serve?.url ?? '');
    await page.getByTestId('new-chat').click();
    await page.getByTestId('conversation-search').fill(`q${SEARCHED}z`);
    await page.getByTestId('search-hit').first().click();
    const target = page.locator(`[data-message-id="conv_long_${SEARCHED}"]`);
    await target.waitFor();
    // It is scrolled into the list's visible part.
    await expect
      .poll(
        () =>
          target.evaluate((element) => {
            const box = element.getBoundingClientRect();
            const list = element.closest('[data-testid="messages"]')?.getBoundingClientRect();
            return list !== undefined && box.bottom > list.top && box.top < list.bottom;
          }),
        { timeout: 15_000 },
      )
      .toBe(true);
    const numbers = await renderedNumbers();
    // Loaded from the hit to the end, contiguous; the latest message is there below it.
    expect(numbers.at(-1)).toBe(MESSAGES - 1);
    expect(numbers).toEqual(
      Array.from({ length: numbers.length }, (_, index) => (numbers[0] ?? 0) + index),
    );
    expect(numbers[0]).toBeLessThanOrEqual(SEARCHED);
  }, 60_000);
});
