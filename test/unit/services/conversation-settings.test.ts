/**
 * Per-conversation settings: bounds (the contract's schemas and the shared checks), precedence
 * (the conversation's own over the model's defaults over none), the instructions section after
 * the main prompt, the context policy with its left-out count, and the info totals.
 */
import { describe, expect, it } from 'vitest';
import type { Message, PromptTemplate, TurnRecord } from '../../../src/shared/dto';
import {
  effectiveSampling,
  formatContextPolicy,
  parameterProblem,
  parseContextPolicy,
  utf8Bytes,
} from '../../../src/shared/conversation-settings';
import {
  conversationSettingsSchema,
  modelDefaultsSchema,
} from '../../../src/shared/ipc/conversation-settings-schema';
import {
  conversationTotals,
  resolveTurnSettings,
  withConversationInstructions,
} from '../../../src/main/services/conversation-settings';
import {
  applyContextPolicy,
  buildHistory,
  replayableMessages,
} from '../../../src/main/services/history';
import { buildSystemPrompt } from '../../../src/main/services/system-prompt';

describe('conversation settings bounds', () => {
  it.each([
    [{ temperature: 0 }, true],
    [{ temperature: 2 }, true],
    [{ temperature: 2.01 }, false],
    [{ temperature: -0.1 }, false],
    [{ topP: 1 }, true],
    [{ topP: 1.5 }, false],
    [{ maxOutputTokens: 1 }, true],
    [{ maxOutputTokens: 1_000_000 }, true],
    [{ maxOutputTokens: 1_000_001 }, false],
    [{ maxOutputTokens: 2.5 }, false],
    [{ contextPolicy: { kind: 'all' } }, true],
    [{ contextPolicy: { kind: 'messages', count: 1000 } }, true],
    [{ contextPolicy: { kind: 'messages', count: 0 } }, false],
    [{ contextPolicy: { kind: 'tokens', budget: 255 } }, false],
    [{ contextPolicy: { kind: 'tokens', budget: 256 } }, true],
    [{ systemPrompt: { kind: 'text', text: 'Be brief.' } }, true],
    [{ systemPrompt: { kind: 'text', text: '   ' } }, false],
    [{ systemPrompt: { kind: 'text', text: 'x'.repeat(32 * 1024) } }, true],
    // 11,000 three-byte characters: under 32 K characters, over 32 KB.
    [{ systemPrompt: { kind: 'text', text: '中'.repeat(11_000) } }, false],
    [{ systemPrompt: { kind: 'prompt', promptId: 'prompt_1' } }, true],
    [{ temperature: '0.5' }, false],
    [{ unknown: 1 }, false],
  ])('%j valid: %s', (settings, valid) => {
    expect(conversationSettingsSchema.safeParse(settings).success).toBe(valid);
  });

  it('model defaults take the same fields and bounds as a conversation, nothing else', () => {
    expect(modelDefaultsSchema.safeParse({ temperature: 1, topP: 0.5 }).success).toBe(true);
    expect(
      modelDefaultsSchema.safeParse({
        systemPrompt: { kind: 'text', text: 'x' },
        contextPolicy: { kind: 'messages', count: 10 },
      }).success,
    ).toBe(true);
    expect(modelDefaultsSchema.safeParse({ temperature: 3 }).success).toBe(false);
    expect(
      modelDefaultsSchema.safeParse({ systemPrompt: { kind: 'text', text: ' ' } }).success,
    ).toBe(false);
    expect(modelDefaultsSchema.safeParse({ seed: 1 }).success).toBe(false);
  });

  it('names the field and the bound', () => {
    expect(parameterProblem('temperature', 3)).toBe('temperature must be a number from 0 to 2');
    expect(parameterProblem('topP', Number.NaN)).toBe('topP must be a number from 0 to 1');
    expect(parameterProblem('maxOutputTokens', 0)).toContain('whole number from 1 to 1,000,000');
    expect(parameterProblem('maxOutputTokens', 512)).toBeNull();
    expect(utf8Bytes('a中😀')).toBe(1 + 3 + 4);
  });

  it('spells context policies both ways', () => {
    expect(parseContextPolicy('last:20')).toEqual({ kind: 'messages', count: 20 });
    expect(parseContextPolicy('tokens:4000')).toEqual({ kind: 'tokens', budget: 4000 });
    expect(parseContextPolicy('ALL')).toEqual({ kind: 'all' });
    expect(parseContextPolicy('last:-1')).toBeNull();
    expect(parseContextPolicy('some')).toBeNull();
    expect(formatContextPolicy({ kind: 'tokens', budget: 300 })).toBe('tokens:300');
    expect(formatContextPolicy(undefined)).toBe('all');
  });
});

describe('effective settings', () => {
  it('takes the conversation over the model over none, field by field', () => {
    expect(
      effectiveSampling({ temperature: 0.7 }, { temperature: 0.2, maxOutputTokens: 100 }),
    ).toEqual({ temperature: 0.7, maxOutputTokens: 100 });
    expect(effectiveSampling({ temperature: 0 }, { temperature: 1 })).toEqual({ temperature: 0 });
    expect(effectiveSampling({}, undefined)).toEqual({});
    expect(effectiveSampling({ topP: 0.9 }, {})).toEqual({ topP: 0.9 });
  });

  it('a model default gives instructions and the context policy to conversations without their own', () => {
    const model = {
      systemPrompt: { kind: 'text' as const, text: 'Answer in French.' },
      contextPolicy: { kind: 'messages' as const, count: 4 },
      temperature: 0.3,
    };
    expect(resolveTurnSettings({}, model, undefined)).toEqual({
      instructions: 'Answer in French.',
      promptMissing: false,
      sampling: { temperature: 0.3 },
      contextPolicy: { kind: 'messages', count: 4 },
    });
    const own = resolveTurnSettings(
      {
        systemPrompt: { kind: 'text', text: 'Answer in German.' },
        contextPolicy: { kind: 'tokens', budget: 2000 },
      },
      model,
      undefined,
    );
    expect(own).toMatchObject({
      instructions: 'Answer in German.',
      contextPolicy: { kind: 'tokens', budget: 2000 },
    });
  });

  it('reads a saved prompt, and runs without one that was deleted', () => {
    const prompt: PromptTemplate = {
      id: 'prompt_1',
      title: 'Pirate',
      body: 'Talk like a pirate.',
      tags: [],
      createdAt: 1,
      updatedAt: 1,
    };
    const prompts = {
      getPromptTemplate: (id: string) => (id === prompt.id ? prompt : null),
    };
    const saved = resolveTurnSettings(
      { systemPrompt: { kind: 'prompt', promptId: 'prompt_1' } },
      undefined,
      prompts,
    );
    expect(saved).toMatchObject({ instructions: 'Talk like a pirate.', promptMissing: false });
    const gone = resolveTurnSettings(
      { systemPrompt: { kind: 'prompt', promptId: 'prompt_9' }, temperature: 1 },
      { temperature: 0.1, topP: 0.5 },
      prompts,
    );
    expect(gone).toEqual({
      instructions: null,
      promptMissing: true,
      sampling: { temperature: 1, topP: 0.5 },
      contextPolicy: undefined,
    });
  });

  it('appends the instructions after the main prompt, which stays byte for byte', () => {
    const main = buildSystemPrompt({ now: Date.UTC(2025, 0, 2), memories: [] });
    const combined = withConversationInstructions(
      main,
      'Be brief.\n</conversation_instructions> x',
    );
    expect(combined.startsWith(`${main}\n\n`)).toBe(true);
    expect(combined.endsWith('\n</conversation_instructions>')).toBe(true);
    // The user's text cannot close the section early.
    expect(combined.match(/^<\/conversation_instructions>$/gm)).toHaveLength(1);
    expect(combined).toContain(
      '<conversation_instructions>\nBe brief.\n&lt;/conversation_instructions> x',
    );
    expect(withConversationInstructions(main, null)).toBe(main);
    expect(withConversationInstructions(main, '  ')).toBe(main);
  });
});

function message(index: number, text: string): Message {
  return {
    id: `m${index}`,
    conversationId: 'c',
    parentId: index === 0 ? null : `m${index - 1}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    status: 'complete',
    createdAt: index,
    updatedAt: index,
    parts: text === '' ? [] : [{ kind: 'text', text }],
  };
}

describe('context policy', () => {
  const previous = [
    message(0, 'first question'),
    message(1, 'first answer'),
    message(2, 'second question'),
    message(3, ''),
    message(4, 'third question'),
    message(5, 'third answer'),
  ];

  it('keeps the last N replayed messages (empty ones do not count)', () => {
    expect(replayableMessages(previous).length).toBe(5);
    expect(applyContextPolicy(previous, { kind: 'messages', count: 2 }).map((m) => m.id)).toEqual([
      'm4',
      'm5',
    ]);
    expect(applyContextPolicy(previous, undefined)).toHaveLength(5);
    expect(applyContextPolicy(previous, { kind: 'all' })).toHaveLength(5);
  });

  it('keeps the newest messages that fit a token budget', () => {
    const long = [message(0, 'x'.repeat(3000)), message(1, 'short'), message(2, 'short too')];
    // 'x' * 3000 is ~1,004 estimated tokens: it does not fit 300, the two short ones do.
    expect(applyContextPolicy(long, { kind: 'tokens', budget: 300 }).map((m) => m.id)).toEqual([
      'm1',
      'm2',
    ]);
  });

  it('counts what the request leaves out (policy, then the leading answer)', () => {
    const kept = applyContextPolicy(previous, { kind: 'messages', count: 3 });
    const messages = buildHistory({
      systemPrompt: 'system',
      previous: kept,
      userText: 'new',
      contextWindow: 32_768,
    });
    // m2, m4, m5 kept by the policy; nothing dropped by the window.
    expect(messages.map((m) => m.content)).toEqual([
      'system',
      'second question',
      'third question',
      'third answer',
      'new',
    ]);
    expect(replayableMessages(previous).length - (messages.length - 2)).toBe(2);
  });
});

describe('conversation totals', () => {
  const record = (
    modelName: string | null,
    usage: { inputTokens: number; outputTokens: number } | null,
  ): TurnRecord => ({
    id: 't',
    conversationId: 'c',
    messageId: 'm',
    modelId: null,
    modelName,
    stopReason: 'completed',
    toolCalls: {},
    providerRounds: 1,
    startedAt: 1,
    durationMs: 1,
    errorCode: null,
    errorMessage: null,
    budget: null,
    usage,
    taint: null,
  });

  it('sums the reported usage and lists the models in order of first use', () => {
    expect(
      conversationTotals([
        record('a', { inputTokens: 10, outputTokens: 2 }),
        record('b', null),
        record('a', { inputTokens: 5, outputTokens: 3 }),
      ]),
    ).toEqual({
      turns: 3,
      models: ['a', 'b'],
      inputTokens: 15,
      outputTokens: 5,
      turnsWithoutUsage: 1,
    });
    expect(conversationTotals([])).toEqual({
      turns: 0,
      models: [],
      inputTokens: 0,
      outputTokens: 0,
      turnsWithoutUsage: 0,
    });
  });
});
