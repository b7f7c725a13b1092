/**
 * Writes files produced in the sandbox to the user's disk: `<root>/<conversation>/<name>`.
 * Names come from the sandbox, so they are reduced to a safe single path component; an existing
 * file with other content is never overwritten (the new one becomes `name-2.ext`), so an older
 * message's attachment keeps pointing at what it showed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { ArtifactReference } from '../../../shared/turn-events';
import type { ArtifactSink } from '../../core/ports';
import { safeComponent } from '../../policy/file-names';

/** Versions tried before giving up on a free name. */
const MAX_VERSIONS = 1000;

export class FileArtifactSink implements ArtifactSink {
  constructor(private readonly root: string) {}

  save(
    conversationId: string,
    name: string,
    data: Uint8Array,
    mime: string,
  ): Promise<ArtifactReference> {
    const directory = join(this.root, safeComponent(conversationId, 'conversation'));
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const safeName = safeComponent(name, 'file');
    const extension = extname(safeName);
    const stem = safeName.slice(0, safeName.length - extension.length);
    const digest = sha256(data);
    for (let version = 1; version <= MAX_VERSIONS; version++) {
      const candidate = version === 1 ? safeName : `${stem}-${version}${extension}`;
      const path = join(directory, candidate);
      if (existsSync(path)) {
        if (sha256(readFileSync(path)) !== digest) continue;
      } else {
        writeFileSync(path, data, { mode: 0o644 });
      }
      return Promise.resolve({ name: candidate, path, mime, size: data.byteLength });
    }
    return Promise.reject(new Error(`too many versions of ${safeName}`));
  }
}

function sha256(data: Uint8Array): string {
  // node:crypto at first use, not imported: loading it costs every start ~7 ms (issue 24).
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(data).digest('hex');
}
