/**
 * A file on a message: an attachment the user sent or a file a tool produced. Raster images show
 * inline (from the host's own `/files`, never a remote address); a click on the image or the
 * file's name opens it in the artifact viewer (`features/artifacts`); every file has its name and
 * size, and in the browser a download link, on the desktop "open" and "show in folder".
 */
import type { ReactNode } from 'react';
import { stripInvisibleCharacters } from '../../../shared/untrusted-text';
import { openableKindByName } from '../../../shared/openable-files';
import { PaperclipIcon } from '../../components/icons';
import { openArtifact } from '../artifacts/artifact-state';
import { useT } from '../../i18n/use-t';
import type { ShownFile } from '../../state/attachment-rules';
import { isInlineImage } from '../../state/attachment-rules';
import { useApp } from '../../state/store';
import { formatBytes } from '../../../shared/byte-size';
import { openFile, revealFile } from '../../data/files';

/**
 * One file with its actions (`data-testid="message-file"`). Its name is shown without bidi
 * overrides or zero-width characters (a name stored before they were stripped on saving would
 * still read `invoiceexe.pdf` for `invoice\u202Efdp.exe`).
 */
export function FileView(props: { file: ShownFile; attached: boolean }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const file = { ...props.file, name: stripInvisibleCharacters(props.file.name) };
  const path = file.path;
  const label = t(props.attached ? 'chat.attachment' : 'chat.artifact', {
    name: file.name,
    size: formatBytes(file.size),
  });
  return (
    <div
      className={`message-file ${props.attached ? 'attached' : 'produced'}`}
      data-testid="message-file"
      data-kind={props.attached ? 'attachment' : 'artifact'}
      data-name={file.name}
    >
      {bridge && path !== null && isInlineImage(file) && (
        <button
          type="button"
          className="image-zoom-button file-image-button"
          aria-label={t('artifact.view', { name: file.name })}
          data-testid="file-view-image"
          onClick={() => openArtifact({ ...file, path })}
        >
          <img
            className="file-image"
            data-testid="file-image"
            src={bridge.fileUrl(path, false)}
            alt={file.name}
            loading="lazy"
          />
        </button>
      )}
      <div className="file-chip">
        {path !== null ? (
          <button
            type="button"
            className="file-label file-view-button"
            title={t('artifact.view', { name: file.name })}
            data-testid="file-view"
            onClick={() => openArtifact({ ...file, path })}
          >
            <PaperclipIcon /> {label}
          </button>
        ) : (
          <span className="file-label">
            <PaperclipIcon /> {label}
          </span>
        )}
        {bridge && path !== null && <FileActions path={path} name={file.name} />}
      </div>
    </div>
  );
}

/** Download in the browser; open and show in folder on the desktop. */
function FileActions(props: { path: string; name: string }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  if (!bridge) return null;
  if (bridge.host === 'browser') {
    return (
      <a
        className="file-action"
        data-testid="file-download"
        href={bridge.fileUrl(props.path, true)}
        download={props.name}
      >
        {t('file.download')}
      </a>
    );
  }
  const run = (method: 'files.open' | 'files.reveal'): void => {
    (method === 'files.open' ? openFile : revealFile)(bridge, props.path).catch(showError);
  };
  // Only documents, images and media are opened (the host checks the bytes too): a tool's
  // `run-me.bat` or `page.html` is only ever shown in its folder.
  const openable = openableKindByName(props.name) !== null;
  return (
    <>
      {openable && (
        <button
          type="button"
          className="file-action"
          data-testid="file-open"
          onClick={() => run('files.open')}
        >
          {t('file.open')}
        </button>
      )}
      <button
        type="button"
        className="file-action"
        data-testid="file-reveal"
        onClick={() => run('files.reveal')}
      >
        {t('file.reveal')}
      </button>
    </>
  );
}
