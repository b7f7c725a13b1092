/**
 * `aivory chat --models`: the questions several answers put to the user name the answer's model
 * and take turns on the terminal; `--json` lines carry the answer's model after the type.
 */
import { describe, expect, it } from 'vitest';
import { labelledAskers, taggedJson } from '../../../src/main/cli/chat-models';
import { cliApprover } from '../../../src/main/cli/cli-approver';
import type { CliIo } from '../../../src/main/cli/cli-io';
import type { ApprovalRequest } from '../../../src/main/core/ports';
import type { ResolvedModel } from '../../../src/main/services/chat-service';

const REQUEST: ApprovalRequest = {
  toolName: 'notes__write',
  service: 'notes',
  tool: 'write',
  arguments: { text: 'hello' },
  conversationId: 'conv_1',
  readOnlyHint: false,
  destructiveHint: false,
};

const MODEL = {} as ResolvedModel;

describe('several answers on the command line', () => {
  it("asks one answer's question at a time, each named by its model", async () => {
    const written: string[] = [];
    const questions: { text: string; answer: (reply: string) => void }[] = [];
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (text) => written.push(text),
      dim: (text) => text,
      env: {},
      onInterrupt: () => undefined,
      offInterrupt: () => undefined,
      ask: (text) => new Promise((resolve) => questions.push({ text, answer: resolve })),
    };
    const askers = labelledAskers(io, ['Alpha', 'Beta'], (labelled) => {
      const approve = cliApprover('ask', labelled);
      return approve ? { approve } : {};
    });
    const signal = new AbortController().signal;
    const alpha = askers({ turnId: 't1', model: MODEL, index: 0 }).approve?.(REQUEST, signal);
    const beta = askers({ turnId: 't2', model: MODEL, index: 1 }).approve?.(REQUEST, signal);
    await expect.poll(() => questions.length).toBe(1);
    // Beta's question waits until Alpha's is answered.
    expect(written.join('')).toContain('[Alpha] MCP tool write');
    expect(written.join('')).not.toContain('[Beta]');
    questions[0]?.answer('y');
    await expect(alpha).resolves.toBe('once');
    await expect.poll(() => questions.length).toBe(2);
    expect(written.join('')).toContain('[Beta] MCP tool write');
    questions[1]?.answer('n');
    await expect(beta).resolves.toBe('deny');
  });

  it('tags a --json line with its model right after its type', () => {
    const line = taggedJson({ type: 'text-delta', turnId: 'turn_2', text: 'Hi' }, 'beta-13b');
    expect(line).toBe('{"type":"text-delta","model":"beta-13b","turnId":"turn_2","text":"Hi"}');
  });
});
