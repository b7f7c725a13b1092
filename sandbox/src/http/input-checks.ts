/**
 * Checks on identifiers, file names and workspace paths that arrive in URLs. They run before the
 * service is called; the service confines paths again on its side (defence in depth).
 */
import type { UploadDirectory } from '../sandbox-service';
import { UPLOAD_DIRECTORIES } from '../sandbox-service';
import { HttpError } from './http-error';

/** Session ids the service hands out; anything else cannot name a session (404). */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Conversation ids come from the app's database; this also keeps them safe as archive keys. */
export const CONVERSATION_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
/** The longest name most file systems (ext4, APFS, NTFS in UTF-16 units) accept. */
export const FILE_NAME_MAX_BYTES = 255;
/** Linux PATH_MAX; a longer workspace path cannot exist. */
export const WORKSPACE_PATH_MAX_BYTES = 4096;

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export function isSessionId(value: string): boolean {
  return SESSION_ID_PATTERN.test(value);
}

export function unknownSession(): HttpError {
  return new HttpError(404, 'not-found', 'No such session.');
}

function badRequest(message: string): HttpError {
  return new HttpError(400, 'bad-request', message);
}

/**
 * Accepts an upload name only if it is one path component: not empty, `.` or `..`, no `/`,
 * `\`, NUL or other control characters, at most 255 UTF-8 bytes. Returns it unchanged.
 */
export function checkUploadName(name: string | null): string {
  if (name === null || name === '') throw badRequest('The query parameter "name" is required.');
  if (name === '.' || name === '..') throw badRequest('The file name cannot be "." or "..".');
  if (name.includes('/') || name.includes('\\')) {
    throw badRequest('The file name must be a single path component (no "/" or "\\").');
  }
  if (CONTROL_CHARACTERS.test(name)) {
    throw badRequest('The file name cannot contain NUL or other control characters.');
  }
  if (Buffer.byteLength(name, 'utf8') > FILE_NAME_MAX_BYTES) {
    throw badRequest(`The file name is longer than ${FILE_NAME_MAX_BYTES} bytes.`);
  }
  return name;
}

/**
 * Accepts a path relative to /workspace and returns it normalised (empty and `.` segments
 * dropped, so `a//./b/` becomes `a/b`; `""` is the workspace itself). Absolute paths, `..`
 * segments, backslashes, NUL and other control characters are refused with 400.
 */
export function checkWorkspacePath(path: string): string {
  if (CONTROL_CHARACTERS.test(path)) {
    throw badRequest('The path cannot contain NUL or other control characters.');
  }
  if (path.includes('\\')) throw badRequest('The path cannot contain backslashes.');
  if (path.startsWith('/')) throw badRequest('The path must be relative to /workspace.');
  if (Buffer.byteLength(path, 'utf8') > WORKSPACE_PATH_MAX_BYTES) {
    throw badRequest(`The path is longer than ${WORKSPACE_PATH_MAX_BYTES} bytes.`);
  }
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw badRequest('The path cannot contain ".." segments.');
  return segments.join('/');
}

/** The optional `dir` of an upload: uploads (default) or downloads. */
export function checkUploadDirectory(value: string | null): UploadDirectory {
  if (value === null || value === '') return 'uploads';
  const known = UPLOAD_DIRECTORIES.find((directory) => directory === value);
  if (!known) throw badRequest(`"dir" must be one of: ${UPLOAD_DIRECTORIES.join(', ')}.`);
  return known;
}
