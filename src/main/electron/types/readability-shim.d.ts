/**
 * @mozilla/readability's types for the Electron program only. Electron's own types declare a
 * global `interface Document` (for `<webview>`), which turns Readability's untyped `Document`
 * parameter into that interface and breaks the linkedom document the web_fetch tool passes. The
 * Node program (tsconfig.json) still checks web_fetch against the real types.
 */
declare module '@mozilla/readability' {
  export class Readability<T = string> {
    constructor(
      document: unknown,
      options?: { serializer?: (node: T) => T; [option: string]: unknown },
    );
    parse(): null | {
      title: string | null | undefined;
      content: T | null | undefined;
      textContent: string | null | undefined;
      length: number | null | undefined;
      excerpt: string | null | undefined;
      byline: string | null | undefined;
      dir: string | null | undefined;
      siteName: string | null | undefined;
      lang: string | null | undefined;
      publishedTime: string | null | undefined;
    };
  }
  export function isProbablyReaderable(
    document: unknown,
    options?: Record<string, unknown>,
  ): boolean;
}
