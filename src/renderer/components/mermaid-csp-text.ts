/**
 * The text half of `mermaid-csp.ts` (no DOM, so unit-tested under Node): moving mermaid's style
 * attributes and `<style>` blocks out of an SVG's text before DOMPurify parses it, and back after.
 */

const STYLE_ATTRIBUTE = 'data-aivory-style';
const PLACEHOLDER = 'data-aivory-style-block';

/** What the parse hook took out of the SVG text: the `<style>` blocks, by placeholder index. */
export interface Stash {
  blocks: string[];
}

/** The SVG text with styles moved out of CSP's way (pure: unit-tested). */
export function hideStyles(text: string, stash: Stash): string {
  return text
    .replace(/<style>([\s\S]*?)<\/style>/g, (block) => {
      stash.blocks.push(block);
      return `<g ${PLACEHOLDER}="${stash.blocks.length - 1}"></g>`;
    })
    .replace(/(<[^<>]*?\s)style=/g, `$1${STYLE_ATTRIBUTE}=`);
}

/** The SVG text with the styles back (pure: unit-tested). */
export function restoreStyles(text: string, stash: Stash): string {
  return text
    .replace(
      new RegExp(`<g ${PLACEHOLDER}="(\\d+)"\\s*(?:/>|></g>)`, 'g'),
      (_match, index: string) => stash.blocks[Number(index)] ?? '',
    )
    .replace(new RegExp(`(<[^<>]*?\\s)${STYLE_ATTRIBUTE}=`, 'g'), '$1style=');
}
