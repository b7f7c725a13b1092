import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  LIVE_REASONING_CHARS,
  ReasoningBlock,
} from '../../../src/renderer/features/chat/reasoning-block';

const textOf = (html: string): string =>
  /<div class="reasoning-text">([^<]*)<\/div>/.exec(html)?.[1] ?? '';

describe('a very long reasoning', () => {
  const long = Array.from({ length: 100_000 }, (_, index) => `step ${index}`).join(' ');

  it('shows only its end while it streams', () => {
    const html = renderToStaticMarkup(<ReasoningBlock text={long} live savedMs={null} />);
    const shown = textOf(html);
    expect(shown).toBe(`…${long.slice(-LIVE_REASONING_CHARS)}`);
    expect(shown.endsWith('step 99999')).toBe(true);
  });

  it('holds all of it once finished, and a short one whole while it streams', () => {
    expect(
      textOf(renderToStaticMarkup(<ReasoningBlock text={long} live={false} savedMs={5} />)),
    ).toBe(long);
    expect(textOf(renderToStaticMarkup(<ReasoningBlock text="a b c" live savedMs={null} />))).toBe(
      'a b c',
    );
  });
});
