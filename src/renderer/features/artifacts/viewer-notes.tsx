/** The viewers' shared messages: loading, too large to preview, a failed read, a note. */
import type { ReactNode } from 'react';
import { formatBytes } from '../../../shared/byte-size';
import { useT } from '../../i18n/use-t';
import type { ViewedFile } from './artifact-state';
import type { ViewerKind } from './artifact-kind';
import { VIEWER_LIMITS } from './artifact-kind';
import type { TextRead } from './read-file';

/** A line above a viewer's content. */
export function ViewerNote(props: { children: ReactNode }): ReactNode {
  return <p className="artifact-note muted">{props.children}</p>;
}

/** "Too large to preview — open or download". */
export function TooLarge(props: { file: ViewedFile; kind: ViewerKind }): ReactNode {
  const t = useT();
  return (
    <p className="artifact-message" data-testid="artifact-too-large">
      {t('artifact.tooLarge', {
        size: formatBytes(props.file.size),
        limit: formatBytes(VIEWER_LIMITS[props.kind]),
      })}
    </p>
  );
}

/** What shows while a read is not ready: loading, too large, or why it failed. */
export function ReadProblem(props: {
  read: Exclude<TextRead, { state: 'ready' }>;
  file: ViewedFile;
  kind: ViewerKind;
}): ReactNode {
  const t = useT();
  switch (props.read.state) {
    case 'loading':
      return (
        <p className="artifact-message muted" data-testid="artifact-loading">
          {t('artifact.loading', { name: props.file.name })}
        </p>
      );
    case 'too-large':
      return <TooLarge file={props.file} kind={props.kind} />;
    case 'failed':
      return (
        <p className="artifact-message artifact-error" data-testid="artifact-failed">
          {t('artifact.failed', { reason: props.read.reason })}
        </p>
      );
  }
}
