/**
 * A button that copies text to the clipboard and says "Copied" (or "Copy failed") for a moment:
 * code blocks and message actions use it.
 */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { MessageKey } from '../i18n/i18n';
import { useT } from '../i18n/use-t';
import { copyText } from './clipboard';

/** How long "Copied" stays on the button. */
const COPIED_MS = 1500;

export function CopyButton(props: {
  /** The text, read when clicked (it may come from the page as shown). */
  text: () => string;
  label: MessageKey;
  className: string;
  testId: string;
}): ReactNode {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return undefined;
    const timer = window.setTimeout(() => setState('idle'), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className={props.className}
      data-testid={props.testId}
      data-state={state}
      onClick={() => {
        void copyText(props.text()).then((copied) => setState(copied ? 'copied' : 'failed'));
      }}
    >
      {t(state === 'copied' ? 'code.copied' : state === 'failed' ? 'code.copyFailed' : props.label)}
    </button>
  );
}
