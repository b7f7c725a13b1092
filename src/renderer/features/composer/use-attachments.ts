/**
 * The composer's pending files: added from the file picker, a drop or a long paste (each file
 * checked against the host's rules before it is read: a file that breaks one is refused with the
 * reason, never listed), read to base64, or handed over already read (an MCP resource, all or
 * none); removed one by one, cleared once sent.
 */
import { useCallback, useRef, useState } from 'react';
import type { AttachmentProblem, PendingAttachment } from '../../state/attachment-rules';
import { attachmentProblem, sortIncoming } from '../../state/attachment-rules';
import { hasThumbnail } from '../../state/file-kind';
import { readBase64 } from './text-file';

/** What the composer does with its files. */
export interface Attachments {
  files: PendingAttachment[];
  /** True while added files are being read. */
  reading: boolean;
  /** Why files of the latest additions were not taken (shown until dismissed). */
  refusals: AttachmentProblem[];
  add(files: readonly File[]): Promise<void>;
  /** Adds files already read (an MCP resource's); false when a rule refuses them. */
  attach(files: readonly Omit<PendingAttachment, 'id'>[]): boolean;
  remove(id: string): void;
  /** Replaces the list (cleared after sending, restored when sending failed). */
  replace(files: PendingAttachment[]): void;
  dismissRefusals(): void;
  /** Empties the list and forgets the refusals (another conversation). */
  reset(): void;
}

let nextId = 1;

/** The local File each attachment was read from (for its thumbnail; gone with the attachment). */
const localFiles = new WeakMap<PendingAttachment, Blob>();

async function readAttachment(file: File): Promise<PendingAttachment> {
  const read = {
    id: `file-${nextId++}`,
    name: file.name,
    size: file.size,
    mime: file.type,
    dataBase64: await readBase64(file),
  };
  localFiles.set(read, file);
  return read;
}

/**
 * What a thumbnail of `file` is drawn from: the local File it was read from, or, for one that
 * arrived already read (an MCP resource), its bytes; null for a file that gets an icon instead.
 */
export function thumbnailSource(file: PendingAttachment): Blob | null {
  if (!hasThumbnail(file.mime)) return null;
  const local = localFiles.get(file);
  if (local !== undefined) return local;
  const bytes = Uint8Array.from(atob(file.dataBase64), (char) => char.charCodeAt(0));
  return new Blob([bytes], { type: file.mime });
}

/** The pending files of one composer. */
export function useAttachments(): Attachments {
  const [files, setFiles] = useState<PendingAttachment[]>([]);
  const [reading, setReading] = useState(false);
  const [refusals, setRefusals] = useState<AttachmentProblem[]>([]);
  const current = useRef<PendingAttachment[]>([]);
  current.current = files;
  /** Files taken but still being read: they count against the caps already. */
  const inFlight = useRef<{ size: number }[]>([]);
  /** Bumped by `reset`: files still being read then belong to the old conversation. */
  const generation = useRef(0);
  const add = useCallback(async (added: readonly File[]) => {
    if (added.length === 0) return;
    const { accepted, refused } = sortIncoming([...current.current, ...inFlight.current], added);
    setRefusals(refused.map((refusal) => refusal.problem));
    if (accepted.length === 0) return;
    const sizes = accepted.map((file) => ({ size: file.size }));
    inFlight.current = [...inFlight.current, ...sizes];
    setReading(true);
    const started = generation.current;
    try {
      const read = await Promise.all(accepted.map(readAttachment));
      if (generation.current === started) setFiles((list) => [...list, ...read]);
    } catch {
      setRefusals((list) => [...list, { key: 'attach.readFailed', params: {} }]);
    } finally {
      inFlight.current = inFlight.current.filter((entry) => !sizes.includes(entry));
      setReading(inFlight.current.length > 0);
    }
  }, []);
  const attach = useCallback((added: readonly Omit<PendingAttachment, 'id'>[]): boolean => {
    const problem = attachmentProblem([...current.current, ...inFlight.current], added);
    setRefusals(problem === null ? [] : [problem]);
    if (problem !== null) return false;
    const read = added.map((file) => ({ ...file, id: `file-${nextId++}` }));
    current.current = [...current.current, ...read];
    setFiles((list) => [...list, ...read]);
    return true;
  }, []);
  const reset = useCallback(() => {
    generation.current += 1;
    current.current = [];
    setFiles([]);
    setRefusals([]);
  }, []);
  return {
    files,
    reading,
    refusals,
    add,
    attach,
    remove: (id) => setFiles((list) => list.filter((file) => file.id !== id)),
    replace: setFiles,
    dismissRefusals: () => setRefusals([]),
    reset,
  };
}
