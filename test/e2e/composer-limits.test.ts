import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS } from '../../src/shared/ipc/limits';
import { formatBytes } from '../../src/shared/byte-size';
import { openBrowser, screenshot } from './helpers/browser';
import { chatScript } from './helpers/chat-script';
import { useAppFixture } from './helpers/app-fixture';
import { seriousViolations } from './helpers/axe';

/** expect.poll waits one second by default: far too little on a loaded 2-core machine. */
const POLL = { timeout: 30_000 };
const PASTE_BYTES = 5 * 1024 * 1024;
const GREETING = 'Hello from the scripted model.';
const LONG_NAME = `${'quarterly-report-draft-'.repeat(13).slice(0, 296)}.txt`;

/** One line of the pasted text: ASCII, Latin, Chinese and an emoji (a surrogate pair). */
const LINE = 'The quick brown fox jumps over the lazy dog, line after line. Ünïcödé 中文 😀\n';

/** The text `copyText` puts on the clipboard: whole lines, about `bytes` characters. */
function clipboardText(bytes: number): string {
  return LINE.repeat(Math.floor(bytes / LINE.length));
}

/** Puts that text on the clipboard (made in the page: nothing crosses the driver). */
async function copyText(page: Page, bytes: number): Promise<void> {
  await page.evaluate(
    async ({ size, line }) => {
      await navigator.clipboard.writeText(line.repeat(Math.floor(size / line.length)));
    },
    { size: bytes, line: LINE },
  );
}

/** The copy of an attached file under the data directory's uploads/, read back. */
function uploadedFile(home: string, name: string): string {
  const uploads = join(home, 'uploads');
  for (const folder of readdirSync(uploads)) {
    const path = join(uploads, folder, name);
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  throw new Error(`${name} is not under ${uploads}`);
}

/** A real paste (Ctrl+V) of the clipboard into the composer. */
async function pasteIntoComposer(page: Page): Promise<void> {
  await page.getByTestId('composer-input').focus();
  await page.keyboard.press('Control+V');
}

/** Drops a file named `name` on the composer, as the file manager would. */
async function dropFile(page: Page, name: string): Promise<void> {
  const dropped = await page.evaluateHandle((fileName) => {
    const data = new DataTransfer();
    data.items.add(new File(['some notes\n'], fileName, { type: 'text/plain' }));
    return data;
  }, name);
  await page.getByTestId('composer').dispatchEvent('dragover', { dataTransfer: dropped });
  await page.getByTestId('composer').dispatchEvent('drop', { dataTransfer: dropped });
}

/** Sends `text` and waits for the scripted greeting to complete as the last answer. */
async function sendAndWaitForAnswer(page: Page, text: string): Promise<void> {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
  await page.getByTestId('message-user').filter({ hasText: text }).waitFor();
  const answer = page.getByTestId('message-assistant').last();
  await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
  expect(await answer.textContent()).toContain(GREETING);
}

/**
 * The notes lie inside the composer, their buttons wholly, and nothing in them scrolls sideways.
 * (The whole page at 390 wide is layout.test.ts's to check.)
 */
async function notesFit(page: Page): Promise<void> {
  const composer = await page.getByTestId('composer').boundingBox();
  if (composer === null) throw new Error('no composer');
  const right = composer.x + composer.width;
  const parts = page.locator('.composer-notice, .composer-notice button');
  expect(await parts.count()).toBeGreaterThan(2);
  for (const part of await parts.all()) {
    const box = await part.boundingBox();
    expect(box, (await part.textContent()) ?? '').not.toBeNull();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(composer.x);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(right + 0.5);
  }
  for (const note of await page.locator('.composer-notice').all()) {
    expect(await note.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  }
}

/** Shows both notes: a refused file and a paste too long for the message. */
async function showBothNotes(page: Page): Promise<void> {
  await page.getByTestId('new-chat').click();
  await dropFile(page, LONG_NAME);
  await page.getByTestId('composer-refusal-notice').waitFor();
  await copyText(page, 300_000);
  await pasteIntoComposer(page);
  await page.getByTestId('composer-paste-notice').waitFor();
}

async function composerValueLength(page: Page): Promise<number> {
  return page
    .getByTestId('composer-input')
    .evaluate((element) => (element as HTMLTextAreaElement).value.length);
}

describe('e2e: the composer checks the host’s limits as text and files arrive', () => {
  const app = useAppFixture(chatScript);

  it('a 5 MB paste is kept out of the text box, offered as a file, and sent as one', async () => {
    const { page, context } = app().browser;
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(app().serve.url);
    await copyText(page, PASTE_BYTES);
    await pasteIntoComposer(page);

    const pasted = clipboardText(PASTE_BYTES);
    const size = formatBytes(Buffer.byteLength(pasted));
    const notice = page.getByTestId('composer-paste-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(
      `This paste is ${size} (${pasted.length.toLocaleString('en-US')} characters); a message can hold 100,000 characters. Attach it as a file instead?`,
    );
    expect(await composerValueLength(page)).toBe(0);
    await screenshot(page, 'composer-paste-notice');

    // "Insert the first 100,000 characters" fills the box to the limit, never beyond.
    // (One unit less when the limit falls inside an emoji: a pair is never split.)
    await notice.getByTestId('composer-paste-insert').click();
    const inserted = await composerValueLength(page);
    expect(inserted).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(inserted).toBeGreaterThanOrEqual(MAX_MESSAGE_CHARS - 1);
    expect(
      await page
        .getByTestId('composer-input')
        .evaluate((element) => (element as HTMLTextAreaElement).value),
    ).toBe(pasted.slice(0, inserted));
    // Typing more stops at the limit; pasting more is offered as a file again.
    await page.getByTestId('composer-input').press('End');
    await page.keyboard.type('xyz');
    expect(await composerValueLength(page)).toBe(MAX_MESSAGE_CHARS);
    expect(await page.getByTestId('composer-count').textContent()).toBe(
      'The message has reached 100,000 characters, the most one message can hold.',
    );
    await page.getByTestId('composer-input').fill('');

    await pasteIntoComposer(page);
    await notice.waitFor();
    await notice.getByTestId('composer-paste-attach').click();
    const chip = page.getByTestId('composer-attachment');
    await chip.waitFor();
    expect(await chip.getAttribute('data-name')).toBe('pasted-text.txt');
    expect(await chip.textContent()).toContain(`pasted-text.txt (${size})`);
    expect(await notice.count()).toBe(0);
    expect(await composerValueLength(page)).toBe(0);

    await sendAndWaitForAnswer(page, 'Please summarise the attached text');
    const sentFile = page
      .getByTestId('message-user')
      .last()
      .getByTestId('message-file')
      .filter({ hasText: 'pasted-text.txt' });
    expect(await sentFile.count()).toBe(1);
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    // The model read about the file: the note names it. The stored copy is the pasted text.
    const lastRequest = app().llm.requests.at(-1);
    expect(JSON.stringify(lastRequest?.body)).toContain('pasted-text.txt');
    expect(uploadedFile(app().serve.home, 'pasted-text.txt') === pasted).toBe(true);
  });

  it('text that would overflow with what is already typed is offered the same way', async () => {
    const { page, context } = app().browser;
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(app().serve.url);
    await copyText(page, 60_000);
    await page.getByTestId('composer-input').fill('x'.repeat(50_000));
    await page.getByTestId('composer-input').press('End');
    await pasteIntoComposer(page);
    const notice = page.getByTestId('composer-paste-notice');
    await notice.waitFor();
    const total = 50_000 + clipboardText(60_000).length;
    expect(await notice.textContent()).toContain(
      `With this text the message would have ${total.toLocaleString('en-US')} characters; a message can hold 100,000.`,
    );
    expect(await composerValueLength(page)).toBe(50_000);
    expect(await notice.getByTestId('composer-paste-insert').textContent()).toBe(
      'Insert the first 50,000 characters',
    );
    await notice.getByTestId('composer-paste-dismiss').click();
    expect(await notice.count()).toBe(0);
    expect(await composerValueLength(page)).toBe(50_000);
    await page.getByTestId('composer-input').fill('');
  });

  it('a file with a 300-character name is refused as it is added; later sends work, also after New chat', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('new-chat').click();
    await dropFile(page, LONG_NAME);
    const refusal = page.getByTestId('composer-refusal');
    await refusal.waitFor();
    const words = (await refusal.textContent()) ?? '';
    expect(words).toContain('was not attached: its name has 300 characters');
    expect(words).toContain('a file name can have at most 255');
    // The name is shown, bounded: its start and its extension.
    expect(words).toContain('“quarterly-report-draft-quarterly');
    expect(words).toContain('….txt”');
    expect(words.length).toBeLessThan(260);
    expect(await page.getByTestId('composer-attachment').count()).toBe(0);
    await screenshot(page, 'composer-refused-file');

    await sendAndWaitForAnswer(page, 'First message after the refused file');
    expect(await page.getByTestId('error-banner').count()).toBe(0);

    // A good file dropped with a bad one: the good one is taken, the bad one refused.
    await dropFile(page, LONG_NAME);
    await dropFile(page, 'notes.txt');
    await page.getByTestId('composer-attachment').waitFor();
    expect(await page.getByTestId('composer-attachment').getAttribute('data-name')).toBe(
      'notes.txt',
    );
    // New chat starts with an empty composer: nothing of the other conversation's draft.
    await page.getByTestId('composer-input').fill('a draft for the other conversation');
    await page.getByTestId('new-chat').click();
    await expect.poll(() => page.getByTestId('composer-attachment').count(), POLL).toBe(0);
    expect(await composerValueLength(page)).toBe(0);
    expect(await page.getByTestId('composer-refusal').count()).toBe(0);

    await dropFile(page, LONG_NAME);
    await refusal.waitFor();
    await sendAndWaitForAnswer(page, 'First message of the new chat');
    expect(await refusal.count()).toBe(1);
    await page.getByTestId('composer-refusal-dismiss').click();
    expect(await refusal.count()).toBe(0);
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    expect(await page.getByTestId('composer-attachment').count()).toBe(0);
  });

  it('the notes fit at 1440×900, 720×480 and 390 wide, light and dark (axe), and in Chinese', async () => {
    const { page, context } = app().browser;
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(app().serve.url);
    // Several files dropped at once: the first three are named, the rest counted.
    await page.getByTestId('new-chat').click();
    const dropped = await page.evaluateHandle((name) => {
      const data = new DataTransfer();
      for (const prefix of ['a', 'b', 'c', 'd', 'e']) {
        data.items.add(new File(['x'], `${prefix}${name}`, { type: 'text/plain' }));
      }
      return data;
    }, LONG_NAME);
    await page.getByTestId('composer').dispatchEvent('drop', { dataTransfer: dropped });
    await page.getByTestId('composer-refusal-notice').waitFor();
    expect(await page.getByTestId('composer-refusal').count()).toBe(3);
    expect(await page.getByTestId('composer-refusal-notice').textContent()).toContain(
      '2 more files were not attached',
    );
    await showBothNotes(page);
    const sizes = [
      { width: 1440, height: 900, name: '1440' },
      { width: 720, height: 480, name: '720' },
      { width: 390, height: 844, name: '390' },
    ];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect
        .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
        .toBe(scheme);
      expect(await seriousViolations(page, '[data-testid="composer"]')).toEqual([]);
      for (const size of sizes) {
        await page.setViewportSize(size);
        await notesFit(page);
        await screenshot(page, `composer-notes-${size.name}-${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });

    const chinese = await openBrowser('zh-CN');
    try {
      await chinese.context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await chinese.page.goto(app().serve.url);
      await showBothNotes(chinese.page);
      const text = clipboardText(300_000);
      expect(await chinese.page.getByTestId('composer-paste-notice').textContent()).toContain(
        `粘贴的内容有 ${formatBytes(Buffer.byteLength(text))}（${text.length.toLocaleString('en-US')} 个字符），而一条消息最多 100,000 个字符。`,
      );
      expect(await chinese.page.getByTestId('composer-refusal').first().textContent()).toContain(
        '它的文件名有 300 个字符，文件名最多 255 个字符',
      );
      await chinese.page.setViewportSize({ width: 390, height: 844 });
      await notesFit(chinese.page);
      await screenshot(chinese.page, 'composer-notes-390-zh');
    } finally {
      await chinese.close();
    }
  });
});
