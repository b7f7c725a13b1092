/**
 * A long conversation opens from its end: only its latest page is read, and only the rows in view
 * are in the DOM (the list is virtualised); scrolling up reads the pages before, in order, with
 * nothing missing or twice and the view kept in place; a search hit far back opens a window around
 * that message, scrolling down reads on, and "Jump to latest" returns to the end. (bench/ui
 * measures the times; nothing here is timed.)
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
/** The most message rows the DOM may hold at once: the view and a few rows around it. */
const MAX_ROWS = 80;

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
  /** Where a message's row is, in px from the top of the list's view. */
  const rowTop = (number: number) =>
    browser.page
      .locator(`[data-message-id="conv_long_${number}"]`)
      .evaluate(
        (row) =>
          row.getBoundingClientRect().top -
          (row.closest('[data-testid="messages"]')?.getBoundingClientRect().top ?? 0),
      );
  const contiguous = (numbers: readonly number[]) =>
    Array.from({ length: numbers.length }, (_, index) => (numbers[0] ?? 0) + index);

  it('renders only the rows in view, and reads earlier pages on scrolling up, in place', async () => {
    const { page } = browser;
    await page.goto(serve?.url ?? '');
    await page.getByTestId('conversation-item').filter({ hasText: 'Long one' }).click();
    await page.getByText(`Message number ${MESSAGES - 1}.`).waitFor();
    const first = await renderedNumbers();
    expect(first.length).toBeGreaterThan(3);
    expect(first.length).toBeLessThan(MAX_ROWS);
    expect(first).toEqual(contiguous(first));
    expect(first.at(-1)).toBe(MESSAGES - 1);
    const list = page.getByTestId('messages');
    // To the top of the first page (the latest 100 messages): the page before is read, and the
    // row at the top of the view stays there (the reader is not thrown to the new top).
    const oldestLoaded = MESSAGES - 100;
    await list.evaluate((element) => (element.scrollTop = 0));
    const atTop = await list.evaluate((list) => getComputedStyle(list).paddingTop);
    await expect
      .poll(async () => Math.min(...(await renderedNumbers())), { timeout: 30_000 })
      .toBeLessThan(oldestLoaded);
    expect(Math.abs((await rowTop(oldestLoaded)) - Number.parseFloat(atTop))).toBeLessThan(2);
    expect(await list.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    // On up through every page: each view is a short contiguous run, and message 0 comes last.
    const seen = new Set<number>();
    await expect
      .poll(
        async () => {
          await list.evaluate((element) => (element.scrollTop = 0));
          const numbers = await renderedNumbers();
          expect(numbers.length).toBeLessThan(MAX_ROWS);
          expect(numbers).toEqual(contiguous(numbers));
          for (const number of numbers) seen.add(number);
          return numbers[0];
        },
        { timeout: 120_000, interval: 100 },
      )
      .toBe(0);
    expect(seen.has(0)).toBe(true);
    // Keyboard focus in a row survives scrolling that row out of view (it stays mounted).
    const firstRow = page.locator('[data-message-id="conv_long_0"]');
    await firstRow.hover();
    await firstRow.getByTestId('message-copy').first().focus();
    await list.evaluate((element) => (element.scrollTop = element.scrollHeight / 2));
    await expect
      .poll(async () => Math.max(...(await renderedNumbers())))
      .toBeGreaterThan(MESSAGES / 4);
    expect(
      await page.evaluate(() =>
        document.activeElement?.closest('[data-message-id="conv_long_0"]') ? 'kept' : 'lost',
      ),
    ).toBe('kept');
  }, 240_000);

  it('a search hit far back opens a window around it; scrolling down reads on', async () => {
    const { page } = browser;
    await page.goto(serve?.url ?? '');
    await page.getByTestId('new-chat').click();
    await page.getByTestId('conversation-search').fill(`q${SEARCHED}z`);
    await page.getByTestId('search-hit').first().click();
    const target = page.locator(`[data-message-id="conv_long_${SEARCHED}"]`);
    await target.waitFor();
    // It is scrolled into the list's visible part, and marked.
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
    expect(await target.evaluate((element) => element.closest('.search-hit') !== null)).toBe(true);
    const numbers = await renderedNumbers();
    expect(numbers.length).toBeLessThan(MAX_ROWS);
    expect(numbers).toEqual(contiguous(numbers));
    // Only a window around it is loaded: the end of the conversation is not.
    expect(await page.getByText(`Message number ${MESSAGES - 1}.`).count()).toBe(0);
    const list = page.getByTestId('messages');
    // Scrolling down reads the pages after the window (past the first page after the hit).
    await expect
      .poll(
        async () => {
          await list.evaluate((element) => (element.scrollTop = element.scrollHeight));
          return Math.max(...(await renderedNumbers()));
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBeGreaterThan(SEARCHED + 250);
    expect(await page.getByText(`Message number ${MESSAGES - 1}.`).count()).toBe(0);
    // "Jump to latest" goes to the conversation's end.
    await page.getByTestId('jump-to-latest').click();
    await page.getByText(`Message number ${MESSAGES - 1}.`).waitFor();
    await expect
      .poll(() =>
        list.evaluate(
          (element) => element.scrollHeight - element.scrollTop - element.clientHeight < 80,
        ),
      )
      .toBe(true);
    const end = await renderedNumbers();
    expect(end.at(-1)).toBe(MESSAGES - 1);
    expect(end.length).toBeLessThan(MAX_ROWS);
    await expect.poll(() => page.getByTestId('jump-to-latest').count()).toBe(0);
  }, 120_000);
});
