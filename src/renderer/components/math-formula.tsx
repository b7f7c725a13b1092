/**
 * One `$…$` or `$$…$$` formula. KaTeX (`math-formula-katex.ts`) is loaded at the first formula,
 * as its own chunk; until then the TeX source shows as text. KaTeX fills an element React leaves
 * empty, before paint once loaded (so a re-render does not flicker).
 */
import type { ReactNode } from 'react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { renderMath } from './math-formula-katex';

interface KatexModule {
  renderMath: typeof renderMath;
}

let loaded: KatexModule | null = null;
let loading: Promise<KatexModule> | null = null;

function loadKatex(): Promise<KatexModule> {
  loading ??= import('./math-formula-katex').then((module) => (loaded = module));
  return loading;
}

/** A formula, inline or displayed. */
export function MathFormula(props: { tex: string; display: boolean }): ReactNode {
  const target = useRef<HTMLSpanElement>(null);
  const [katex, setKatex] = useState<KatexModule | null>(loaded);
  useEffect(() => {
    if (katex !== null) return undefined;
    let live = true;
    void loadKatex().then((module) => {
      if (live) setKatex(module);
    });
    return () => {
      live = false;
    };
  }, [katex]);
  useLayoutEffect(() => {
    if (katex !== null && target.current !== null) {
      katex.renderMath(target.current, props.tex, props.display);
    }
  }, [katex, props.tex, props.display]);
  const Tag = props.display ? 'div' : 'span';
  return (
    <Tag className={props.display ? 'math math-display' : 'math math-inline'} data-testid="math">
      {katex === null ? <code className="math-source">{props.tex}</code> : null}
      <span ref={target} />
    </Tag>
  );
}
