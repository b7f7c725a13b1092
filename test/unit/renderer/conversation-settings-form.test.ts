/** The conversation settings dialog's form: empty means default, bounds checked before sending. */
import { describe, expect, it } from 'vitest';
import {
  parseSampling,
  parseSettings,
  samplingText,
  settingsText,
} from '../../../src/renderer/features/conversations/settings-form';
import type { ConversationSettings } from '../../../src/shared/conversation-settings';

describe('conversation settings form', () => {
  it('round-trips settings through the form text', () => {
    const settings: ConversationSettings = {
      systemPrompt: { kind: 'prompt', promptId: 'prompt_1' },
      temperature: 0.7,
      maxOutputTokens: 512,
      contextPolicy: { kind: 'tokens', budget: 4000 },
    };
    const text = settingsText(settings);
    expect(text).toMatchObject({ instructions: 'prompt', temperature: '0.7', topP: '' });
    expect(parseSettings(text)).toEqual({ ok: true, value: settings });
    expect(parseSettings(settingsText({}))).toEqual({ ok: true, value: {} });
  });

  it('leaves empty fields out and refuses out-of-range ones by field', () => {
    expect(parseSampling({ temperature: ' ', topP: '', maxOutputTokens: '' })).toEqual({
      ok: true,
      value: {},
    });
    const bad = parseSampling({ temperature: '2.5', topP: '-1', maxOutputTokens: '1.5' });
    expect(bad).toEqual({
      ok: false,
      errors: {
        temperature: { key: 'form.range', params: { min: 0, max: 2 } },
        topP: { key: 'form.range', params: { min: 0, max: 1 } },
        maxOutputTokens: { key: 'form.number' },
      },
    });
    expect(parseSampling({ temperature: '0', topP: '.5', maxOutputTokens: '1000000' })).toEqual({
      ok: true,
      value: { temperature: 0, topP: 0.5, maxOutputTokens: 1_000_000 },
    });
    expect(samplingText({ topP: 0.25 })).toEqual({
      temperature: '',
      topP: '0.25',
      maxOutputTokens: '',
    });
  });

  it('needs the text, the prompt and the policy amount it names', () => {
    const base = settingsText({});
    const blank = parseSettings({ ...base, instructions: 'text', text: '  ' });
    expect(blank.ok ? null : blank.errors.text).toEqual({ key: 'form.required' });
    const huge = parseSettings({ ...base, instructions: 'text', text: '中'.repeat(11_000) });
    expect(huge.ok ? null : huge.errors.text).toEqual({
      key: 'convSettings.error.tooLong',
      params: { kb: 32 },
    });
    const noPrompt = parseSettings({ ...base, instructions: 'prompt' });
    expect(noPrompt.ok ? null : noPrompt.errors.promptId).toEqual({ key: 'form.required' });
    const few = parseSettings({ ...base, context: 'tokens', budget: '100' });
    expect(few.ok ? null : few.errors.budget).toEqual({
      key: 'form.range',
      params: { min: 256, max: 10_000_000 },
    });
    expect(parseSettings({ ...base, context: 'messages', count: '20' })).toEqual({
      ok: true,
      value: { contextPolicy: { kind: 'messages', count: 20 } },
    });
  });
});
