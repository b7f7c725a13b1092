/**
 * The small slice of the DOM that page extraction uses, typed structurally (the project has no
 * DOM lib), plus a parser over linkedom: a DOM without scripts, layout or network access.
 */
import { parseHTML } from 'linkedom';

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<DomNode>;
}

export interface DomElement extends DomNode {
  getAttribute(name: string): string | null;
  remove(): void;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

export interface DomDocument {
  readonly title: string;
  readonly body: DomElement | null;
  readonly documentElement: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

/** Parses an HTML document; never runs scripts or loads anything. */
export function parseHtmlDocument(html: string): DomDocument {
  const { document } = parseHTML(html);
  const parsed: DomDocument = document;
  return parsed;
}

export function isElement(node: DomNode): node is DomElement {
  return node.nodeType === ELEMENT_NODE && 'getAttribute' in node;
}

/** Lower-case tag name (`nodeName` is upper-case for HTML elements). */
export function tagName(node: DomNode): string {
  return node.nodeName.toLowerCase();
}
