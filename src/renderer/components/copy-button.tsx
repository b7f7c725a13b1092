/**
 * A button that copies text to the clipboard and says "Copied" (or "Copy failed") for a moment:
 * code blocks and message actions use it. With an `icon` it is an icon button: the text becomes
 * its accessible name and tooltip, and the icon turns into a check (or a warning) for a moment.
 */
import type { ReactNode } from 'react';
import { CheckIcon, FailedIcon } from './icons';
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
  /** Draw an icon instead of the text. */
  icon?: ReactNode;
}): ReactNode {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return undefined;
    const timer = window.setTimeout(() => setState('idle'), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [state]);
  const text = t(
    state === 'copied' ? 'code.copied' : state === 'failed' ? 'code.copyFailed' : props.label,
  );
  const icon = state === 'idle' ? props.icon : copyStateIcon(state);
  return (
    <button
      type="button"
      className={props.className}
      data-testid={props.testId}
      data-state={state}
      {...(props.icon === undefined ? {} : { 'aria-label': text, title: text })}
      onClick={() => {
        void copyText(props.text()).then((copied) => setState(copied ? 'copied' : 'failed'));
      }}
    >
      {props.icon === undefined ? text : icon}
    </button>
  );
}

/** The icon that says how the copy went. */
function copyStateIcon(state: 'copied' | 'failed'): ReactNode {
  if (state === 'copied') return <CheckIcon />;
  return <FailedIcon />;
}
