import { describe, expect, it } from 'vitest';
import { invokeContract } from '../../../src/shared/ipc-contract';
import { attachmentInputSchema } from '../../../src/shared/ipc/chat-extras-methods';
import {
  MAX_ATTACHMENT_NAME_CHARS,
  MAX_ATTACHMENTS,
  MAX_MESSAGE_CHARS,
} from '../../../src/shared/ipc/limits';
import { translate } from '../../../src/renderer/i18n/i18n';
import {
  attachmentNameProblem,
  attachmentProblem,
  base64OfDataUrl,
  shownFileName,
  sortIncoming,
} from '../../../src/renderer/state/attachment-rules';
import { insertIntoComposer } from '../../../src/renderer/state/composer-rules';
import {
  appendRange,
  cutText,
  insertText,
  insertWhatFits,
  isOversized,
  lengthWith,
  pastedFileName,
  pieceEnds,
  roomFor,
  withinLimit,
} from '../../../src/renderer/state/message-text-rules';
import { requestErrorText } from '../../../src/renderer/state/request-error-text';

const MIB = 1024 * 1024;

/** The host's verdict on a file name (the contract's own schema). */
function hostAccepts(name: string): boolean {
  return attachmentInputSchema.safeParse({ name, dataBase64: 'QQ==' }).success;
}

/** The host's verdict on a message text. */
function hostAcceptsText(text: string): boolean {
  return invokeContract['chat.send'].request.safeParse({ text }).success;
}

/** An error as the bridge throws it (`BridgeError`: a code and the host's message). */
function bridgeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('renderer: the composer’s text stays within the host’s limit', () => {
  it('inserts text that fits where the selection is, caret after it', () => {
    expect(insertText('Hello world', { start: 6, end: 11 }, 'there', '', 20)).toEqual({
      text: 'Hello there',
      caret: 11,
    });
    expect(insertText('', { start: 0, end: 0 }, 'x'.repeat(20), '', 20)).toEqual({
      text: 'x'.repeat(20),
      caret: 20,
    });
  });

  it('keeps aside text that would overflow, with the length the message would have had', () => {
    const result = insertText('abcdef', { start: 3, end: 3 }, 'x'.repeat(15), '', 20);
    expect(isOversized(result)).toBe(true);
    expect(result).toEqual({
      head: 'x'.repeat(15),
      length: 15,
      range: { start: 3, end: 3 },
      separator: '',
      total: 21,
    });
    // Replacing a selection frees its characters.
    expect(isOversized(insertText('abcdef', { start: 0, end: 6 }, 'x'.repeat(20), '', 20))).toBe(
      false,
    );
  });

  it('the limit is the contract’s: what the box may hold, the host accepts', () => {
    const full = 'y'.repeat(MAX_MESSAGE_CHARS);
    expect(hostAcceptsText(full)).toBe(true);
    expect(hostAcceptsText(`${full}y`)).toBe(false);
    expect(isOversized(insertText('', { start: 0, end: 0 }, full))).toBe(false);
    expect(isOversized(insertText('', { start: 0, end: 0 }, `${full}y`))).toBe(true);
    expect(withinLimit(`${full}tail`)).toBe(full);
    // Kept aside, only the start that any message could hold stays in memory.
    const huge = insertText('', { start: 0, end: 0 }, 'z'.repeat(3 * MAX_MESSAGE_CHARS));
    if (!isOversized(huge)) throw new Error('expected oversized');
    expect(huge.head.length).toBe(MAX_MESSAGE_CHARS);
    expect(huge.length).toBe(3 * MAX_MESSAGE_CHARS);
  });

  it('inserts what fits of oversized text, never splitting a surrogate pair', () => {
    const current = 'abcXYZ';
    const oversized = insertText(current, { start: 3, end: 3 }, '1234567890', '', 10);
    if (!isOversized(oversized)) throw new Error('expected oversized');
    expect(roomFor(current, oversized.range, '', 10)).toBe(4);
    expect(insertWhatFits(current, oversized, 10)).toEqual({ text: 'abc1234XYZ', caret: 7 });
    expect(cutText('ab😀cd', 3)).toBe('ab');
    expect(cutText('ab😀cd', 4)).toBe('ab😀');
    // A range the text has since outgrown is clamped, not trusted.
    expect(lengthWith('abc', { start: 2, end: 40 }, 'xy')).toBe(4);
    expect(insertWhatFits('ab', { ...oversized, range: { start: 9, end: 9 } }, 10)).toEqual({
      text: 'ab12345678',
      caret: 10,
    });
  });

  it('a prompt goes where insertIntoComposer puts it', () => {
    for (const current of ['', '   ', 'Hello', 'Hello  \n\n ', 'a\nb']) {
      const { range, separator } = appendRange(current);
      const result = insertText(current, range, 'PROMPT', separator);
      if (isOversized(result)) throw new Error('unexpected');
      expect(result.text, JSON.stringify(current)).toBe(insertIntoComposer(current, 'PROMPT'));
      expect(result.caret).toBe(result.text.length);
    }
  });

  it('cuts text into pieces for encoding, never inside a surrogate pair', () => {
    expect(pieceEnds('', 4)).toEqual([]);
    expect(pieceEnds('abcdefghij', 4)).toEqual([4, 8, 10]);
    // '😀' is two units at 3–4: a cut at 4 would split it, so that piece ends at 3.
    const text = 'abc😀defg';
    const ends = pieceEnds(text, 4);
    expect(ends).toEqual([3, 7, 9]);
    let start = 0;
    const pieces = ends.map((end) => text.slice(start, (start = end)));
    expect(pieces.join('')).toBe(text);
    expect(pieces.every((piece) => new TextEncoder().encode(piece).length > 0)).toBe(true);
    expect(pieces[1]).toBe('😀de');
  });

  it('names pasted files without clashing', () => {
    expect(pastedFileName([])).toBe('pasted-text.txt');
    expect(pastedFileName(['pasted-text.txt', 'pasted-text-2.txt', 'a.txt'])).toBe(
      'pasted-text-3.txt',
    );
  });
});

describe('renderer: files are checked by the host’s rules as they are added', () => {
  it('refuses exactly the names the host refuses', () => {
    const names = [
      'report.pdf',
      'a'.repeat(MAX_ATTACHMENT_NAME_CHARS),
      'a'.repeat(MAX_ATTACHMENT_NAME_CHARS + 1),
      ` ${'a'.repeat(MAX_ATTACHMENT_NAME_CHARS)} `,
      '',
      '   ',
      'dir/file.txt',
      'back\\slash.txt',
      'bell\u0007.txt',
      '中文名字.docx',
      'trailing-newline.txt\n',
    ];
    for (const name of names) {
      expect(attachmentNameProblem(name) === null, JSON.stringify(name)).toBe(hostAccepts(name));
    }
  });

  it('says why, naming the file bounded: its start and its extension', () => {
    const name = `${'x'.repeat(296)}.txt`;
    const problem = attachmentNameProblem(name);
    expect(problem?.key).toBe('attach.nameTooLong');
    expect(problem?.params).toMatchObject({ length: 300, max: 255 });
    const shown = String(problem?.params.name);
    expect(shown.length).toBeLessThanOrEqual(60);
    expect(shown).toMatch(/^x+….txt$/);
    expect(shownFileName('short.txt')).toBe('short.txt');
    expect(shownFileName('tab\there.txt')).toBe('tab\uFFFDhere.txt');
    expect(shownFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(shownFileName('zero\u200Bwidth.txt')).toBe('zerowidth.txt');
    expect(shownFileName('y'.repeat(5_000_000)).length).toBe(60);
    expect(
      translate('en', 'attach.nameTooLong', problem?.params ?? {}).startsWith(`“${shown}” was not`),
    ).toBe(true);
  });

  it('reads the base64 of a data URL, and of an empty file’s bare one', () => {
    expect(base64OfDataUrl('data:text/plain;base64,QUJD')).toBe('QUJD');
    expect(base64OfDataUrl('data:')).toBe('');
  });

  it('takes the files that pass and refuses the others, each with its reason', () => {
    const small = { name: 'a.txt', size: 10 };
    const { accepted, refused } = sortIncoming(Array(8).fill(small), [
      { name: 'b.txt', size: 10 },
      { name: `${'n'.repeat(300)}.txt`, size: 10 },
      { name: 'huge.bin', size: 40 * MIB + 1 },
      { name: 'c.txt', size: 10 },
      { name: 'd.txt', size: 10 },
    ]);
    expect(accepted.map((file) => file.name)).toEqual(['b.txt', 'c.txt']);
    expect(refused.map((refusal) => refusal.problem.key)).toEqual([
      'attach.nameTooLong',
      'attach.tooLarge',
      'attach.tooMany',
    ]);
    expect(refused[1]?.problem.params).toEqual({ name: 'huge.bin', size: '40 MiB', max: 40 });
    expect(refused[2]?.problem.params).toEqual({ name: 'd.txt', max: MAX_ATTACHMENTS });
    const total = sortIncoming([], Array(3).fill({ name: 'c.bin', size: 35 * MIB }));
    expect(total.accepted).toHaveLength(2);
    expect(total.refused[0]?.problem).toEqual({
      key: 'attach.totalTooLarge',
      params: { name: 'c.bin', max: 100 },
    });
    // An MCP resource is taken whole or not at all.
    expect(attachmentProblem([], [small, { name: 'bad/name', size: 1 }])?.key).toBe(
      'attach.nameInvalid',
    );
  });
});

describe('renderer: the host’s schema refusals are said in words', () => {
  it('maps chat.send refusals to what the limit is, in the UI language', () => {
    const text = bridgeError(
      'invalid-input',
      'Invalid request for chat.send: text: Too big: expected string to have <=100000 characters.',
    );
    expect(requestErrorText(text, 'en')).toBe(
      'The message has more than 100,000 characters, the most one message can hold. Shorten it or attach the text as a file.',
    );
    expect(requestErrorText(text, 'zh-CN')).toContain('100,000');
    const name = bridgeError(
      'invalid-input',
      'Invalid request for chat.send: attachments.0.name: Too big: expected string to have <=255 characters.',
    );
    expect(requestErrorText(name, 'en')).toContain('at most 255 characters');
    expect(
      requestErrorText(
        bridgeError(
          'invalid-input',
          'Invalid request for chat.send: attachments.2.dataBase64: must be at most 40 MiB.',
        ),
        'en',
      ),
    ).toContain('larger than 40 MiB');
    expect(
      requestErrorText(
        bridgeError(
          'invalid-input',
          'Invalid request for chat.send: attachments: must be at most 100 MiB together.',
        ),
        'en',
      ),
    ).toContain('total at most 100 MiB');
    expect(
      requestErrorText(
        bridgeError(
          'invalid-input',
          'Invalid request for chat.send: attachments: Too big: expected array to have <=10 items.',
        ),
        'en',
      ),
    ).toContain('at most 10 files');
  });

  it('never shows zod text: an unknown refusal reads as a general sentence', () => {
    const other = bridgeError(
      'invalid-input',
      'Invalid request for models.save: baseUrl: Invalid input: expected string, received number.',
    );
    const words = requestErrorText(other, 'en');
    expect(words).not.toContain('expected');
    expect(words).toContain('refused this request');
  });

  it('leaves a handler’s own words and other errors as they are', () => {
    const worded = bridgeError(
      'invalid-input',
      'At most 10 files can be attached to one message (got 11).',
    );
    expect(requestErrorText(worded, 'en')).toBe(worded.message);
    expect(requestErrorText(new Error('Connection lost.'), 'en')).toBe('Connection lost.');
    expect(requestErrorText('plain text', 'en')).toBe('plain text');
  });
});
