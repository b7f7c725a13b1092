/**
 * The composer's pending files: added from the file picker or a drop (checked against the caps
 * before they are read), read to base64, or handed over already read (an MCP resource); removed
 * one by one, cleared once sent.
 */
import { useCallback, useRef, useState } from 'react';
import { useT } from '../../i18n/use-t';
import type { PendingAttachment } from '../../state/attachment-rules';
import { attachmentProblem, bytesToBase64 } from '../../state/attachment-rules';
import { useApp } from '../../state/store';

/** What the composer does with its files. */
export interface Attachments {
  files: PendingAttachment[];
  /** True while added files are being read. */
  reading: boolean;
  add(files: readonly File[]): Promise<void>;
  /** Adds files already read (an MCP resource's); false when a cap refuses them. */
  attach(files: readonly Omit<PendingAttachment, 'id'>[]): boolean;
  remove(id: string): void;
  /** Replaces the list (cleared after sending, restored when sending failed). */
  replace(files: PendingAttachment[]): void;
}

let nextId = 1;

async function readAttachment(file: File): Promise<PendingAttachment> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return {
    id: `file-${nextId++}`,
    name: file.name,
    size: file.size,
    mime: file.type,
    dataBase64: bytesToBase64(bytes),
  };
}

/** The pending files of one composer. */
export function useAttachments(): Attachments {
  const t = useT();
  const showError = useApp((state) => state.showError);
  const [files, setFiles] = useState<PendingAttachment[]>([]);
  const [reading, setReading] = useState(false);
  const current = useRef<PendingAttachment[]>([]);
  current.current = files;
  const add = useCallback(
    async (added: readonly File[]) => {
      if (added.length === 0) return;
      const problem = attachmentProblem(current.current, added);
      if (problem !== null) {
        showError(t(problem.key, problem.params));
        return;
      }
      setReading(true);
      try {
        const read = await Promise.all(added.map(readAttachment));
        setFiles((list) => [...list, ...read]);
      } catch {
        showError(t('attach.readFailed'));
      } finally {
        setReading(false);
      }
    },
    [showError, t],
  );
  const attach = useCallback(
    (added: readonly Omit<PendingAttachment, 'id'>[]): boolean => {
      const problem = attachmentProblem(current.current, added);
      if (problem !== null) {
        showError(t(problem.key, problem.params));
        return false;
      }
      const read = added.map((file) => ({ ...file, id: `file-${nextId++}` }));
      current.current = [...current.current, ...read];
      setFiles((list) => [...list, ...read]);
      return true;
    },
    [showError, t],
  );
  return {
    files,
    reading,
    add,
    attach,
    remove: (id) => setFiles((list) => list.filter((file) => file.id !== id)),
    replace: setFiles,
  };
}
