/**
 * Runs one mermaid render without a single Content-Security-Policy report. Mermaid draws in the
 * live page (it measures text there), writing `style="…"` attributes (d3's `attr('style')`) and a
 * `<style>` element into the SVG, and its strict mode then re-parses the SVG through DOMPurify
 * (DOMParser); under the app's `style-src 'self'` every one of those is refused and logged —
 * dozens of console errors per diagram, while the refused styles were never applied anyway.
 * During the render (renders are queued one at a time in mermaid-render.ts):
 * - `setAttribute('style', v)` sets `style.cssText` (CSSOM, which the CSP allows), and the
 *   `<style>` element mermaid creates is an inert element of another namespace that serialises as
 *   `<style>` but is never applied in the page;
 * - `DOMParser.parseFromString` and `innerHTML` (DOMPurify's parse) see `style` attributes renamed
 *   and each `<style>` block replaced by an empty `<g>` placeholder, so the parsed copy holds no
 *   style;
 * `restoreStyles` puts both back into the SVG text, which is shown as an `<img>` (an image
 * document applies its own styles, runs no script and loads nothing).
 */

import type { Stash } from './mermaid-csp-text';
import { hideStyles, restoreStyles } from './mermaid-csp-text';

const INERT_NAMESPACE = 'urn:aivory:inert';

/** Runs `render` (a mermaid render returning SVG text) with the hooks above in place. */
export async function withoutInlineStyles(render: () => Promise<string>): Promise<string> {
  const stash: Stash = { blocks: [] };
  const elementProto = Element.prototype;
  const parserProto = DOMParser.prototype;
  const setAttribute = elementProto.setAttribute;
  const parseFromString = parserProto.parseFromString;
  const createElement = document.createElement;
  const innerHTML = Object.getOwnPropertyDescriptor(elementProto, 'innerHTML');
  elementProto.setAttribute = function (this: Element, name: string, value: string): void {
    // Through CSSOM, which the CSP allows (and which d3's own `.style()` already uses).
    if (
      name.toLowerCase() === 'style' &&
      (this instanceof HTMLElement || this instanceof SVGElement)
    )
      this.style.cssText = value;
    else setAttribute.call(this, name, value);
  };
  parserProto.parseFromString = function (
    this: DOMParser,
    text: string,
    type: DOMParserSupportedType,
  ): Document {
    // DOMPurify passes TrustedHTML where the browser has Trusted Types: read it as text.
    return parseFromString.call(this, hideStyles(String(text), stash), type);
  };
  if (innerHTML?.set) {
    const set = innerHTML.set;
    Object.defineProperty(elementProto, 'innerHTML', {
      ...innerHTML,
      set(this: Element, value: unknown) {
        set.call(
          this,
          value === null || value === undefined ? value : hideStyles(String(value), stash),
        );
      },
    });
  }
  document.createElement = function (
    this: Document,
    tagName: string,
    options?: ElementCreationOptions,
  ): HTMLElement {
    if (tagName.toLowerCase() === 'style')
      return this.createElementNS(INERT_NAMESPACE, 'style') as HTMLElement;
    return createElement.call(this, tagName, options);
  } as typeof document.createElement;
  try {
    const svg = await render();
    // Styles still in the text (mermaid's own serialisation) stay; placeholders are restored.
    return restoreStyles(svg, stash);
  } finally {
    elementProto.setAttribute = setAttribute;
    parserProto.parseFromString = parseFromString;
    document.createElement = createElement;
    if (innerHTML) Object.defineProperty(elementProto, 'innerHTML', innerHTML);
  }
}
