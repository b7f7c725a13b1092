/**
 * A long conversation opens from its end (only the latest messages are rendered at first) and
 * grows towards its beginning as the user scrolls up, so opening 2,000 messages costs about what
 * opening 20 does (bench/ui measures it).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { TestBrowser } from './helpers/browser';
import { openBrowser } from './helpers/browser';
import type { ServeProcess } from './helpers/serve-process';
import { startServe } from './helpers/serve-process';

const MESSAGES = 300;

/** Writes a conversation of MESSAGES alternating messages into serve's data directory. */
function seedLongConversation(home: string): void {
  const store = openStore(join(home, 'aivory.db'));
  try {
    store.conversations.createConversation({ id: 'conv_long', title: 'Long one', modelId: null });
    for (let index = 0; index < MESSAGES; index += 1) {
      store.conversations.createMessage({
        id: `conv_long_${index}`,
        conversationId: 'conv_long',
        role: index % 2 === 0 ? 'user' : 'assistant',
        status: 'complete',
        parts: [{ kind: 'text', text: `Message number ${index}.\n\nA second paragraph.` }],
      });
    }
  } finally {
    store.close();
  }
}

describe('e2e: a long conversation renders from its end', () => {
  let serve: ServeProcess;
  let browser: TestBrowser;

  beforeAll(async () => {
    serve = await startServe({ AIVORY_BASE_URL: 'http://127.0.0.1:9/v1', AIVORY_MODEL: 'm' });
    seedLongConversation(serve.home);
    browser = await openBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('shows the latest messages first and the earlier ones on scrolling up', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await page.getByTestId('conversation-item').filter({ hasText: 'Long one' }).click();
    const rendered = page.locator(
      '[data-testid="message-user"], [data-testid="message-assistant"]',
    );
    await page.getByText(`Message number ${MESSAGES - 1}.`).waitFor();
    const first = await rendered.count();
    expect(first).toBeGreaterThan(20);
    expect(first).toBeLessThan(MESSAGES);
    const list = page.getByTestId('messages');
    // One scroll to the top adds earlier messages above and keeps the view where it was (the
    // reader is not thrown to the very top). Checked on that single step: later scrolls by the
    // test itself would reset scrollTop to 0.
    await list.evaluate((element) => (element.scrollTop = 0));
    await expect.poll(() => rendered.count(), { timeout: 15_000 }).toBeGreaterThan(first);
    expect(await list.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    await expect
      .poll(
        async () => {
          await list.evaluate((element) => (element.scrollTop = 0));
          return rendered.count();
        },
        { timeout: 15_000 },
      )
      .toBe(MESSAGES);
    expect(await rendered.first().textContent()).toContain('Message number 0.');
  }, 60_000);
});
