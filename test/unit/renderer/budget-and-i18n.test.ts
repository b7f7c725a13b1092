import { describe, expect, it } from 'vitest';
import { resolveLocale, translate } from '../../../src/renderer/i18n/i18n';
import { EN_MESSAGES } from '../../../src/renderer/i18n/messages-en';
import type { MessageKey } from '../../../src/renderer/i18n/messages-en';
import { ZH_MESSAGES } from '../../../src/renderer/i18n/messages-zh';
import { budgetFromToolCalls, budgetText } from '../../../src/renderer/state/budget-text';

describe('renderer: budget meter text', () => {
  it('lists the tools used so far with their caps, then the total', () => {
    const text = budgetText(
      {
        type: 'budget-update',
        turnId: 't',
        perTool: {
          aivory_web_search: { used: 3, limit: 16 },
          web_fetch: { used: 0, limit: 8 },
          save_memory: { used: 1, limit: null },
        },
        total: { used: 7, limit: 48 },
        rounds: { used: 4, limit: 20 },
      },
      'total',
    );
    expect(text).toBe('search 3/16 · save_memory 1 · total 7/48');
  });

  it('a stored turn shows its counts without caps; a turn without tools shows none', () => {
    const budget = budgetFromToolCalls('t', { web_fetch: 2, save_memory: 1 });
    expect(budget && budgetText(budget, 'total')).toBe('web_fetch 2 · save_memory 1 · total 3');
    expect(budgetFromToolCalls('t', {})).toBeNull();
  });
});

describe('renderer: i18n', () => {
  it('follows the browser locale unless a language is chosen', () => {
    expect(resolveLocale('system', ['zh-CN', 'en'])).toBe('zh-CN');
    expect(resolveLocale('system', ['zh-TW'])).toBe('zh-CN');
    expect(resolveLocale('system', ['en-US', 'zh-CN'])).toBe('en');
    expect(resolveLocale('system', [])).toBe('en');
    expect(resolveLocale('en', ['zh-CN'])).toBe('en');
    expect(resolveLocale('zh-CN', ['en-US'])).toBe('zh-CN');
  });

  it('every Chinese text exists, is not the English one, and uses the same parameters', () => {
    const parameters = (text: string): string[] =>
      [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
    const keys = Object.keys(EN_MESSAGES) as MessageKey[];
    const untranslated = new Set<MessageKey>(['app.title', 'chat.assistant', 'settings.version']);
    for (const key of keys) {
      const zh = ZH_MESSAGES[key];
      expect(zh, key).toBeTruthy();
      expect(parameters(zh), key).toEqual(parameters(EN_MESSAGES[key]));
      if (!untranslated.has(key)) expect(zh, key).not.toBe(EN_MESSAGES[key]);
    }
  });

  it('fills parameters and leaves unknown ones visible', () => {
    expect(translate('en', 'setup.testOk', { count: 3 })).toBe(
      'Connected. The server lists 3 models.',
    );
    expect(translate('zh-CN', 'duration.seconds', { seconds: 12 })).toBe('12 秒');
    expect(translate('en', 'duration.seconds')).toBe('{seconds} s');
  });
});
