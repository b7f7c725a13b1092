/** Reading the files the user names on the command line (`--file`, `--asset`), with clear errors. */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { AivoryError } from '../../shared/errors';
import type { SkillAssetInput } from '../core/ports';
import { mimeTypeForFileName } from '../services/mime-types';
import { overLimit } from '../services/skill-validation';

/**
 * The bytes of the regular file at `path`, refusing before reading when it is larger than
 * `maxBytes`. Failures are `invalid-input` errors naming the flag and the path.
 */
export function readInputFile(path: string, flag: string, maxBytes: number): Uint8Array {
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new AivoryError('invalid-input', `${flag} ${path} is not a file.`);
    size = stats.size;
  } catch (error) {
    if (error instanceof AivoryError) throw error;
    throw new AivoryError(
      'invalid-input',
      `Cannot read ${flag} ${path}: no such file or no access.`,
    );
  }
  if (size > maxBytes) {
    throw new AivoryError('invalid-input', `${flag} ${path} is ${overLimit(size, maxBytes)}.`);
  }
  return new Uint8Array(readFileSync(path));
}

/** The UTF-8 text of a file (a byte-order mark is dropped); other encodings are refused. */
export function readTextFile(path: string, flag: string, maxBytes: number): string {
  const data = readInputFile(path, flag, maxBytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new AivoryError('invalid-input', `${flag} ${path} is not UTF-8 text.`);
  }
}

/** A skill asset from a file: named by its base name, typed by its extension. */
export function readAssetFile(path: string, maxBytes: number): SkillAssetInput {
  const name = basename(path);
  return { name, mime: mimeTypeForFileName(name), data: readInputFile(path, '--asset', maxBytes) };
}
