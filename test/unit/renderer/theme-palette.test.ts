/**
 * The two palettes of base.css (light in `:root`, dark in `:root[data-theme='dark']`): every text
 * colour against the backgrounds it is used on reads at ≥ 4.5:1 (WCAG AA for body text), and the
 * dark set redefines every colour. The e2e theme test checks the same on the rendered screens.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../support/contrast';

const css = readFileSync(
  join(import.meta.dirname, '..', '..', '..', 'src', 'renderer', 'styles', 'base.css'),
  'utf8',
);
function palette(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries(
    [...block.matchAll(/--([\w-]+):\s*([^;]+);/g)].map((match) => [match[1], match[2]]),
  );
}
const light = palette(':root');
const dark = { ...light, ...palette(":root[data-theme='dark']") };

describe('theme palettes', () => {
  it('the contrast helper agrees with WCAG', () => {
    expect(contrastRatio('rgb(0, 0, 0)', 'rgb(255, 255, 255)')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('rgba(0, 0, 0, 0)', 'rgb(255, 255, 255)')).toBeCloseTo(1, 5);
  });

  it.each([
    ['light', light],
    ['dark', dark],
  ])('%s: every text colour reads at ≥ 4.5:1 on its backgrounds', (_name, colours) => {
    const pairs: [string, string][] = [
      ['text', 'bg'],
      ['text', 'panel'],
      ['text', 'sidebar'],
      ['text', 'accent-soft'],
      ['text', 'code-bg'],
      ['text', 'editor-bg'],
      ['text', 'warn-soft'],
      ['text', 'error-soft'],
      ['text', 'code-soft'],
      ['muted', 'bg'],
      ['muted', 'panel'],
      ['muted', 'sidebar'],
      ['muted', 'code-bar'],
      ['accent', 'panel'],
      ['accent', 'accent-soft'],
      ['on-accent', 'accent'],
      ['on-accent', 'error'],
      ['warn', 'panel'],
      // The taint badge under an answer and the stop reasons sit on the page itself.
      ['warn', 'bg'],
      ['error', 'bg'],
      ['accent', 'bg'],
      ['warn', 'warn-soft'],
      ['error', 'panel'],
      ['error', 'error-soft'],
      ['ok', 'panel'],
      ...['keyword', 'string', 'comment', 'number', 'title', 'variable', 'deletion'].map(
        (token): [string, string] => [`hl-${token}`, 'code-bg'],
      ),
    ];
    for (const [front, back] of pairs) {
      const ratio = contrastRatio(colours[front] ?? '', colours[back] ?? '');
      expect(ratio, `--${front} on --${back}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('the dark palette redefines every colour of the light one', () => {
    const own = palette(":root[data-theme='dark']");
    const colours = Object.keys(light).filter((name) => name !== 'radius');
    expect(colours.filter((name) => !(name in own))).toEqual([]);
  });
});
