/**
 * The mark of an answer that read untrusted content: one small warning icon in the footer, its
 * sentence as its accessible name and tooltip (a keyboard user reaches it by Tab). The details
 * are on the card of the call that read it (`TaintNote`).
 */
import type { ReactNode } from 'react';
import { FailedIcon } from '../../components/icons';
import { useT } from '../../i18n/use-t';

/** The icon (`data-testid="turn-taint"`); `sources` lists what was read. */
export function TaintIcon(props: { sources: string }): ReactNode {
  const t = useT();
  const label = t('taint.icon', { sources: props.sources, help: t('chat.taintHelp') });
  return (
    <span
      className="taint-icon"
      data-testid="turn-taint"
      role="img"
      aria-label={label}
      title={label}
      tabIndex={0}
    >
      <FailedIcon size={14} />
    </span>
  );
}
