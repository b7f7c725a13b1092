/**
 * Files in and out of a session's /workspace: uploads (`cat >` inside the container), directory
 * listings and downloads confined to the workspace (symlinks out are refused by the path script).
 */
import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { WORKSPACE } from './container-template';
import type { DockerRuntime } from './docker-runtime';
import type { FileRead, OutputFile, UploadDirectory, WorkspaceEntry } from './sandbox-service';
import { SandboxError } from './sandbox-service';
import { listPathScript, PATH_SCRIPT_MARKER } from './workspace-paths';

export class FileTransfer {
  constructor(private readonly runtime: DockerRuntime) {}

  /** Writes `body` to `<directory>/<name>`; check the name first with `checkUploadName`. */
  async upload(
    containerId: string,
    name: string,
    body: Readable,
    size: number,
    directory: UploadDirectory,
  ): Promise<OutputFile> {
    const target = `${WORKSPACE}/${directory}/${name}`;
    const result = await this.runtime.run(
      containerId,
      ['sh', '-c', 'mkdir -p "$(dirname "$1")" && cat > "$1"', 'sh', target],
      { input: body },
    );
    if (result.exitCode !== 0) {
      const reason = result.stderr.toString('utf8').includes('No space left')
        ? 'the workspace is full'
        : 'the write failed';
      throw new SandboxError('too-large', `Upload failed: ${reason}.`);
    }
    return { path: `${directory}/${name}`, size, mime: mimeFor(name) };
  }

  /** A directory listing, or a file's size, type and bytes (streamed out of the container). */
  async readPath(containerId: string, path: string): Promise<FileRead> {
    const relative = confineRelative(path);
    const probe = await this.runtime.run(containerId, [
      'python3',
      '-c',
      listPathScript(),
      relative,
    ]);
    const text = probe.stdout.toString('utf8');
    const markerIndex = text.lastIndexOf(PATH_SCRIPT_MARKER);
    if (probe.exitCode !== 0 || markerIndex === -1) {
      throw new SandboxError(
        'not-found',
        `No such file or directory in the workspace: ${relative || '.'}`,
      );
    }
    const parsed = JSON.parse(text.slice(markerIndex + PATH_SCRIPT_MARKER.length)) as
      | { kind: 'directory'; entries: WorkspaceEntry[] }
      | { kind: 'file'; real: string; size: number }
      | { kind: 'missing' };
    if (parsed.kind === 'missing') {
      throw new SandboxError(
        'not-found',
        `No such file or directory in the workspace: ${relative || '.'}`,
      );
    }
    if (parsed.kind === 'directory') return parsed;
    const process = await this.runtime.attach(containerId, ['cat', '--', parsed.real]);
    process.stdin.end();
    return { kind: 'file', size: parsed.size, mime: mimeFor(parsed.real), body: process.stdout };
  }
}

/** @throws SandboxError `bad-request` unless `name` is one plain file name. */
export function checkUploadName(name: string): void {
  if (!/^[^/\\\0]{1,255}$/.test(name) || name === '.' || name === '..') {
    throw new SandboxError('bad-request', 'Invalid file name.');
  }
}

/** A workspace-relative path without `..`, absolute parts, backslashes or NUL; '' is the root. */
export function confineRelative(path: string): string {
  if (path.includes('\0') || path.includes('\\') || path.startsWith('/')) {
    throw new SandboxError('bad-request', 'The path must be relative to /workspace.');
  }
  const normalized = posix.normalize(path === '' ? '.' : path);
  if (normalized === '..' || normalized.startsWith('../')) {
    throw new SandboxError('bad-request', 'The path must stay inside /workspace.');
  }
  return normalized === '.' ? '' : normalized.replace(/\/$/, '');
}

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  csv: 'text/csv',
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  html: 'text/html',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  zip: 'application/zip',
};

export function mimeFor(name: string): string {
  const extension = name.split('.').pop()?.toLowerCase() ?? '';
  return MIME_BY_EXTENSION[extension] ?? 'application/octet-stream';
}
