/**
 * The files the viewer steps through: a conversation's attachments and tool artifacts in the
 * order they appear (pure: unit-tested).
 */
import type { Message } from '../../../shared/dto';

/** A file the viewer can show (a stored artifact or attachment: it has a path). */
export interface ViewedFile {
  name: string;
  path: string;
  size: number;
  mime: string;
}

/**
 * The files of a conversation in the order they appear (attachments and tool artifacts), each
 * path once: what next / previous step through (pure: unit-tested).
 */
export function conversationFiles(messages: readonly Message[]): ViewedFile[] {
  const seen = new Set<string>();
  const files: ViewedFile[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      const file =
        part.kind === 'artifact'
          ? part.artifact
          : part.kind === 'attachment'
            ? part.attachment
            : null;
      if (file === null || seen.has(file.path)) continue;
      seen.add(file.path);
      files.push({ name: file.name, path: file.path, size: file.size, mime: file.mime });
    }
  }
  return files;
}

/** The file `step` places from `current` in `files` (wrapping round); null when there is none. */
export function stepFile(
  files: readonly ViewedFile[],
  current: ViewedFile,
  step: 1 | -1,
): ViewedFile | null {
  if (files.length === 0) return null;
  const index = files.findIndex((file) => file.path === current.path);
  if (index < 0) return files[0] ?? null;
  return files[(index + step + files.length) % files.length] ?? null;
}
