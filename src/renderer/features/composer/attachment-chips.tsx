/**
 * The composer's pending files as chips: a thumbnail (images) or a file-type icon, name, size,
 * the MCP service it came from, remove. A thumbnail is an object URL of the local File (never
 * uploaded to show it; the CSPs' `img-src` allow `blob:`), revoked when its chip goes (removed,
 * sent, another conversation) or the composer unmounts.
 */
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { FileKindIcons } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import type { PendingAttachment } from '../../state/attachment-rules';
import { fileKind } from '../../state/file-kind';
import { thumbnailSource } from './use-attachments';
import { formatBytes } from '../../../shared/byte-size';

/** Object URLs of the image files among `files`, by id; each revoked once its file is gone. */
function useThumbnailUrls(files: readonly PendingAttachment[]): ReadonlyMap<string, string> {
  const urls = useRef(new Map<string, string>());
  const [, redraw] = useState(0);
  useEffect(() => {
    const present = new Set(files.map((file) => file.id));
    for (const [id, url] of urls.current) {
      if (present.has(id)) continue;
      URL.revokeObjectURL(url);
      urls.current.delete(id);
    }
    let added = false;
    for (const file of files) {
      if (urls.current.has(file.id)) continue;
      const source = thumbnailSource(file);
      if (source === null) continue;
      urls.current.set(file.id, URL.createObjectURL(source));
      added = true;
    }
    if (added) redraw((count) => count + 1);
  }, [files]);
  useEffect(() => {
    const owned = urls.current;
    return () => {
      for (const url of owned.values()) URL.revokeObjectURL(url);
      owned.clear();
    };
  }, []);
  return urls.current;
}

/** One chip per pending file (`data-testid="composer-attachment"`). */
export function AttachmentChips(props: {
  files: readonly PendingAttachment[];
  onRemove(id: string): void;
}): ReactNode {
  const t = useT();
  const thumbnails = useThumbnailUrls(props.files);
  if (props.files.length === 0) return null;
  return (
    <ul className="composer-attachments">
      {props.files.map((file) => {
        const thumbnail = thumbnails.get(file.id);
        const kind = fileKind(file.name, file.mime);
        const KindIcon = FileKindIcons[kind];
        return (
          <li
            key={file.id}
            className="composer-attachment"
            data-testid="composer-attachment"
            data-name={file.name}
            data-mime={file.mime}
            data-kind={kind}
          >
            {thumbnail === undefined ? (
              <span className="attachment-icon" data-testid="composer-attachment-icon">
                <KindIcon size={18} />
              </span>
            ) : (
              <img
                className="attachment-thumbnail"
                data-testid="composer-attachment-thumbnail"
                src={thumbnail}
                alt=""
              />
            )}
            <span className="file-label">
              {t('composer.attachmentChip', { name: file.name, size: formatBytes(file.size) })}
              {file.source !== undefined && (
                <span className="attachment-source" data-testid="composer-attachment-source">
                  {' '}
                  {t('mcpPicker.attachedFrom', { service: file.source })}
                </span>
              )}
            </span>
            <button
              type="button"
              className="chip-remove"
              data-testid="composer-attachment-remove"
              aria-label={t('composer.removeAttachment', { name: file.name })}
              title={t('composer.removeAttachment', { name: file.name })}
              onClick={() => props.onRemove(file.id)}
            >
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}
