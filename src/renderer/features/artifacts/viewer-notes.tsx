/** The viewers' shared messages: loading, too large to show, a failed read, a note. */
import type { ReactNode } from 'react';
import { formatBytes } from '../../../shared/byte-size';
import { openableKindByName } from '../../../shared/openable-files';
import { openFile, revealFile } from '../../data/files';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { ViewedFile } from './artifact-state';
import type { ViewerKind } from './artifact-kind';
import { VIEWER_LIMITS } from './artifact-kind';
import type { ReadPending } from './read-file';
import type { ReaderLimit } from './reader-limits';

/** A line above a viewer's content. */
export function ViewerNote(props: { children: ReactNode }): ReactNode {
  return <p className="artifact-note muted">{props.children}</p>;
}

/**
 * "Too large to show here", with the way out: past the file's own cap (its size against the
 * viewer's), or past one of the reader's work bounds (`limit`: what it expands to), then the file's
 * actions — Open and Show in folder on the desktop, Download in the browser.
 */
export function TooLarge(props: {
  file: ViewedFile;
  kind: ViewerKind;
  limit?: ReaderLimit;
}): ReactNode {
  const t = useT();
  const browser = useApp((state) => state.bridge?.host !== 'electron');
  const text =
    props.limit === undefined
      ? t('artifact.tooLarge', {
          size: formatBytes(props.file.size),
          limit: formatBytes(VIEWER_LIMITS[props.kind]),
        })
      : `${t('artifact.tooLargeWork', { what: t(`artifact.limit.${props.limit}`) })} ${t(
          browser ? 'artifact.wayOutBrowser' : 'artifact.wayOutDesktop',
        )}`;
  return (
    <div className="artifact-message artifact-too-large" data-testid="artifact-too-large">
      <p>{text}</p>
      <FileWayOut file={props.file} />
    </div>
  );
}

/** The file's own actions where the viewer cannot show it. */
function FileWayOut(props: { file: ViewedFile }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  if (bridge === null) return null;
  const { path, name } = props.file;
  if (bridge.host === 'browser') {
    return (
      <p className="artifact-way-out">
        <a
          className="file-action"
          href={bridge.fileUrl(path, true)}
          download={name}
          data-testid="artifact-too-large-download"
        >
          {t('artifact.download')}
        </a>
      </p>
    );
  }
  return (
    <p className="artifact-way-out">
      {openableKindByName(name) !== null && (
        <button
          type="button"
          className="file-action"
          data-testid="artifact-too-large-open"
          onClick={() => void openFile(bridge, path).catch(showError)}
        >
          {t('artifact.openWith')}
        </button>
      )}
      <button
        type="button"
        className="file-action"
        data-testid="artifact-too-large-reveal"
        onClick={() => void revealFile(bridge, path).catch(showError)}
      >
        {t('file.reveal')}
      </button>
    </p>
  );
}

/** What shows while a read is not ready: loading, too large, or why it failed. */
export function ReadProblem(props: {
  read: ReadPending;
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
      return (
        <TooLarge
          file={props.file}
          kind={props.kind}
          {...(props.read.limit === undefined ? {} : { limit: props.read.limit })}
        />
      );
    case 'failed':
      return (
        <p className="artifact-message artifact-error" data-testid="artifact-failed">
          {t('artifact.failed', { reason: props.read.reason })}
        </p>
      );
  }
}
