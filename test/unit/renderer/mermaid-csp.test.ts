/**
 * mermaid-csp-text.ts (the text half of mermaid-csp.ts): the SVG text DOMPurify parses holds no style attribute and no
 * `<style>` element (the page's CSP would log each), and the styles come back whole afterwards.
 * The e2e layout test checks the whole render logs nothing in the real page.
 */
import { describe, expect, it } from 'vitest';
import { hideStyles, restoreStyles } from '../../../src/renderer/components/mermaid-csp-text';

const SVG =
  '<svg id="m" style="max-width: 360px;" viewBox="0 0 1 1"><style>#m .node > rect{fill:#fff;}</style>' +
  '<g class="label" style="" transform="translate(0, -9)"><path d="M 0 0 L 10 5 z" style="stroke-width: 1;"></path>' +
  '<text>style="kept as text"</text></g><style>.b{}</style></svg>';

describe('mermaid without CSP reports', () => {
  it('hides every style attribute and <style> element, then restores the same text', () => {
    const stash = { blocks: [] as string[] };
    const hidden = hideStyles(SVG, stash);
    expect(hidden).not.toMatch(/\sstyle=/);
    expect(hidden).not.toContain('<style>');
    expect(stash.blocks).toEqual([
      '<style>#m .node > rect{fill:#fff;}</style>',
      '<style>.b{}</style>',
    ]);
    // Text that only looks like an attribute is left alone.
    expect(hidden).toContain('<text>style="kept as text"</text>');
    expect(restoreStyles(hidden, stash)).toBe(SVG);
  });

  it('restores a placeholder however the sanitizer wrote it back', () => {
    const stash = { blocks: ['<style>a{}</style>'] };
    expect(restoreStyles('<svg><g data-aivory-style-block="0"/></svg>', stash)).toBe(
      '<svg><style>a{}</style></svg>',
    );
    expect(restoreStyles('<g data-aivory-style="fill: red"></g>', stash)).toBe(
      '<g style="fill: red"></g>',
    );
  });
});
