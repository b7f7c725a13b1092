/** Under an answer: how many earlier messages its request left out (context policy or window). */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';

export function OmittedNote(props: { count: number | undefined }): ReactNode {
  const t = useT();
  if (props.count === undefined || props.count <= 0) return null;
  return (
    <span className="omitted-note muted" data-testid="omitted-messages">
      {t('chat.omittedMessages', { count: props.count })}
    </span>
  );
}
