/** The composer's pending files as chips: name, size, the MCP service it came from, remove. */
import type { ReactNode } from 'react';
import { PaperclipIcon } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import type { PendingAttachment } from '../../state/attachment-rules';
import { formatSize } from '../../state/attachment-rules';

/** One chip per pending file (`data-testid="composer-attachment"`). */
export function AttachmentChips(props: {
  files: readonly PendingAttachment[];
  onRemove(id: string): void;
}): ReactNode {
  const t = useT();
  if (props.files.length === 0) return null;
  return (
    <ul className="composer-attachments">
      {props.files.map((file) => (
        <li
          key={file.id}
          className="composer-attachment"
          data-testid="composer-attachment"
          data-name={file.name}
          data-mime={file.mime}
        >
          <span className="file-label">
            <PaperclipIcon />{' '}
            {t('composer.attachmentChip', { name: file.name, size: formatSize(file.size) })}
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
      ))}
    </ul>
  );
}
