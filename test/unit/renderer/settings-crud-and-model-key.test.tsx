/**
 * The settings pages' one list (`features/settings/crud-list.tsx`, static render) and the model
 * editor's key rules (`model-key-rules.ts`, pure): where a saved key may go before the editor
 * saves.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ModelView } from '../../../src/renderer/data/models';
import { CrudList } from '../../../src/renderer/features/settings/crud-list';
import { keyRules } from '../../../src/renderer/features/settings/model-key-rules';

const SAVED: ModelView = {
  id: 'm1',
  label: 'Work',
  baseUrl: 'https://api.example.com/v1',
  model: 'gpt-x',
  toolMode: 'native',
  contextWindow: 32768,
  defaultTools: null,
  isDefault: true,
  apiKeyMasked: 'sk-…abcd',
};

describe('renderer: the settings CRUD list', () => {
  const page = (items: readonly { id: string; name: string }[] | null, loading?: string) =>
    renderToStaticMarkup(
      <CrudList<{ id: string; name: string }, null>
        testId="settings-page-things"
        intro="Things you keep."
        empty="No things yet."
        {...(loading === undefined ? {} : { loading })}
        items={items}
        itemKey={(item) => item.id}
        renderItem={(item) => <li data-testid="thing">{item.name}</li>}
        add={{ label: 'New thing', testId: 'thing-new', target: null }}
        renderEditor={() => <div data-testid="thing-editor" />}
      />,
    );

  it('draws the intro, one row per item (by the page) and the add button', () => {
    const html = page([
      { id: 'a', name: 'Alpha' },
      { id: 'b', name: '<b>Beta</b>' },
    ]);
    expect(html).toContain('data-testid="settings-page-things"');
    expect(html).toContain('Things you keep.');
    expect(html.match(/data-testid="thing"/g)).toHaveLength(2);
    expect(html).toContain('&lt;b&gt;Beta&lt;/b&gt;');
    expect(html).toContain('data-testid="thing-new"');
    expect(html).toContain('＋ New thing');
    expect(html).not.toContain('No things yet.');
    expect(html).not.toContain('thing-editor');
  });

  it('says when the list is empty, and shows only the loading line while it loads if asked', () => {
    expect(page([])).toContain('No things yet.');
    expect(page(null)).not.toContain('No things yet.');
    expect(page(null)).toContain('data-testid="thing-new"');
    expect(page(null, 'Loading…')).toBe('<p class="muted">Loading…</p>');
  });
});

describe('renderer: the model editor key rules', () => {
  const rules = (input: Partial<Parameters<typeof keyRules>[0]>) =>
    keyRules({
      saved: null,
      template: null,
      baseUrl: SAVED.baseUrl,
      apiKey: '',
      clearKey: false,
      ...input,
    });

  it('a saved key would move with the model to another origin: the editor asks', () => {
    expect(rules({ saved: SAVED }).keyWouldMove).toBe(false);
    expect(rules({ saved: SAVED, baseUrl: 'https://api.example.com/v2' }).keyWouldMove).toBe(false);
    expect(rules({ saved: SAVED, baseUrl: 'https://other.example/v1' }).keyWouldMove).toBe(true);
    // Not when a new key is typed, the key is cleared, or there is none.
    expect(
      rules({ saved: SAVED, baseUrl: 'https://other.example/v1', apiKey: 'sk-new' }).keyWouldMove,
    ).toBe(false);
    expect(
      rules({ saved: SAVED, baseUrl: 'https://other.example/v1', clearKey: true }).keyWouldMove,
    ).toBe(false);
    expect(
      rules({ saved: { ...SAVED, apiKeyMasked: null }, baseUrl: 'https://other.example/v1' })
        .keyWouldMove,
    ).toBe(false);
  });

  it('another model of a provider reuses its key on the same origin only', () => {
    expect(rules({ template: SAVED })).toEqual({
      keyWouldMove: false,
      templateKey: SAVED,
      templateKeyApplies: true,
    });
    expect(rules({ template: SAVED, baseUrl: 'https://other.example/v1' })).toEqual({
      keyWouldMove: false,
      templateKey: SAVED,
      templateKeyApplies: false,
    });
    expect(rules({ template: SAVED, apiKey: 'sk-own' }).templateKey).toBeNull();
  });
});
