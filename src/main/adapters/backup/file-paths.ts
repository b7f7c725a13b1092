/**
 * Messages name their files (attachments, produced files) by absolute path. A backup restored on
 * another computer, or into another data folder, has its files under other folders: the restored
 * database's paths are rewritten from the backed-up machine's folders (the manifest's `roots`) to
 * this one's, before the database takes its place. Paths outside those folders are left as they
 * are (the app refuses to serve them either way).
 */
import Database from 'better-sqlite3';
import { sep } from 'node:path';
import type { BackupManifest, FileFolder } from './backup-format';

const LINKED: readonly { kind: string; field: string; folder: FileFolder }[] = [
  { kind: 'artifact', field: '$.artifact.path', folder: 'artifacts' },
  { kind: 'attachment', field: '$.attachment.path', folder: 'uploads' },
];

/** Rewrites the file paths in the database at `path`; returns how many parts changed. */
export function rebaseFilePaths(
  path: string,
  from: NonNullable<BackupManifest['roots']>,
  to: Record<FileFolder, string>,
): number {
  const database = new Database(path);
  try {
    let changed = 0;
    database.transaction(() => {
      for (const { kind, field, folder } of LINKED) {
        const oldPrefix = from[folder] + from.sep;
        const newPrefix = to[folder] + sep;
        if (oldPrefix === newPrefix) continue;
        // The rest of the path keeps its names; only the separator changes between systems.
        const rest = `substr(json_extract(data, '${field}'), length(:old) + 1)`;
        const moved = from.sep === sep ? rest : `replace(${rest}, :oldSep, :newSep)`;
        const result = database
          .prepare(
            `UPDATE message_parts SET data = json_set(data, '${field}', :new || ${moved})
             WHERE kind = :kind AND substr(json_extract(data, '${field}'), 1, length(:old)) = :old`,
          )
          .run({ kind, old: oldPrefix, new: newPrefix, oldSep: from.sep, newSep: sep });
        changed += result.changes;
      }
    })();
    return changed;
  } finally {
    database.close();
  }
}
