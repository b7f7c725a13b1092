/**
 * The lazily loaded half of `math-formula.tsx`: KaTeX and its CSS (fonts bundled, loaded by the
 * browser only when a formula uses them). `katex.render` builds DOM nodes with styles set through
 * CSSOM, so it needs no inline `<style>` and no HTML string; `trust: false` keeps \href,
 * \includegraphics and friends as text.
 */
import katex from 'katex';
import 'katex/dist/katex.min.css';

/** Typesets `tex` into `element` (replacing its content); errors are shown in place, in red. */
export function renderMath(element: HTMLElement, tex: string, display: boolean): void {
  katex.render(tex, element, {
    displayMode: display,
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    output: 'htmlAndMathml',
    maxSize: 50,
    maxExpand: 200,
  });
}
