/**
 * The Markdown export shows the model's raw HTML as text (issue 11, finding 12): a viewer that
 * renders HTML in Markdown must not run a `<script>` or load an `<img onerror>` from an answer,
 * while code blocks and inline code keep their bytes.
 */
import { describe, expect, it } from 'vitest';
import {
  escapeHtmlOutsideCode,
  exportConversation,
  exportPieces,
  formatSlice,
  formattedExportPieces,
} from '../../../src/main/services/conversation-export';
import type { Conversation, Message } from '../../../src/shared/dto';

describe('Markdown export', () => {
  it('escapes raw HTML outside code, keeps code as written', () => {
    const text = [
      'Here: <script>alert(1)</script> and <img src=x onerror=alert(2)>',
      'Inline `a < b && <br>` stays, so does ``x ` <y> ``.',
      '```html',
      '<div onclick="x()">code</div>',
      '```',
      '~~~',
      '<b>tilde fence</b>',
      '~~~',
      'After the fence: <iframe src="https://evil.example">',
    ].join('\n');
    expect(escapeHtmlOutsideCode(text)).toBe(
      [
        'Here: &lt;script>alert(1)&lt;/script> and &lt;img src=x onerror=alert(2)>',
        'Inline `a < b && <br>` stays, so does ``x ` <y> ``.',
        '```html',
        '<div onclick="x()">code</div>',
        '```',
        '~~~',
        '<b>tilde fence</b>',
        '~~~',
        'After the fence: &lt;iframe src="https://evil.example">',
      ].join('\n'),
    );
    expect(escapeHtmlOutsideCode('an unclosed ` <b> tick')).toBe('an unclosed ` &lt;b> tick');
  });

  it('applies to answers, reasoning, the title and file names', () => {
    const conversation = {
      id: 'c1',
      title: 'Plan <img src=x onerror=alert(1)>',
      createdAt: 0,
    } as unknown as Conversation;
    const messages = [
      {
        id: 'm1',
        role: 'assistant',
        status: 'complete',
        parts: [
          { kind: 'reasoning', text: 'think <svg onload=alert(1)>' },
          { kind: 'text', text: 'Done <a href="javascript:alert(1)">click</a>' },
          {
            kind: 'artifact',
            artifact: { name: 'x<img>].png', path: '/a/x.png', mime: 'image/png', size: 3 },
          },
        ],
      },
    ] as unknown as Message[];
    const markdown = exportConversation(conversation, messages, 'md');
    expect(markdown).not.toMatch(/<(img|svg|a)\b/);
    expect(markdown).toContain('# Plan &lt;img src=x onerror=alert(1)>');
    expect(markdown).toContain('think &lt;svg onload=alert(1)>');
    expect(markdown).toContain('Done &lt;a href="javascript:alert(1)">click&lt;/a>');
    expect(markdown).toContain('[x&lt;img>\\].png](/a/x.png)');
    expect(markdown).toContain('<details><summary>Reasoning</summary>');
  });
});

describe('export in slices', () => {
  const conversation: Conversation = {
    id: 'c1',
    title: 'Slices <b>',
    modelId: null,
    createdAt: 0,
    updatedAt: 0,
    toolToggles: {},
    settings: {},
    pinnedAt: null,
  };
  const messages: Message[] = Array.from({ length: 1_234 }, (_, index) => ({
    id: `m${index}`,
    conversationId: 'c1',
    parentId: index === 0 ? null : `m${index - 1}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    status: index === 1_233 ? 'interrupted' : 'complete',
    createdAt: index,
    updatedAt: index,
    parts:
      index % 7 === 3
        ? [
            {
              kind: 'tool-call',
              toolCallId: `t${index}`,
              name: 'echo',
              arguments: { a: [1, '\n'] },
            },
            { kind: 'text', text: `line one\nline <two> ${index}` },
          ]
        : [{ kind: 'text', text: `message ${index}` }],
  })) as Message[];

  it('writes what the one-go export writes, in both formats', async () => {
    for (const format of ['md', 'json'] as const) {
      for (const list of [messages, messages.slice(0, 3), []]) {
        let joined = '';
        for await (const piece of exportPieces(conversation, list, format)) joined += piece;
        expect(joined).toBe(exportConversation(conversation, list, format));
      }
    }
  });

  it('writes the same from slices formatted as pages were read, cut anywhere', async () => {
    for (const format of ['md', 'json'] as const) {
      for (const list of [messages, messages.slice(0, 3), []]) {
        // Pages as the shown path is read: from its end, the first page the short one.
        const slices: string[] = [];
        for (let end = list.length; end > 0; end -= 500) {
          slices.unshift(formatSlice(list.slice(Math.max(0, end - 500), end), format));
        }
        if (list.length === 0) slices.push(formatSlice([], format));
        let joined = '';
        for await (const piece of formattedExportPieces(conversation, slices, format)) {
          joined += piece;
        }
        expect(joined).toBe(exportConversation(conversation, list, format));
      }
    }
  });
});
