/**
 * The checkout's freshness check (`bin/ensure-build.js`): the newest time under a source folder
 * counts every file at any depth, the folders themselves (a deleted file shows as its folder's
 * time) and what symbolic links point to; a missing path is 0.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newestMtime } from '../../../bin/ensure-build.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A tree whose every entry has time `base` (seconds). */
function tree(base: number): string {
  const root = mkdtempSync(join(tmpdir(), 'aivory-mtime-'));
  roots.push(root);
  mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
  writeFileSync(join(root, 'top.ts'), '');
  writeFileSync(join(root, 'a', 'b', 'c', 'deep.ts'), '');
  for (const path of ['top.ts', 'a/b/c/deep.ts', 'a/b/c', 'a/b', 'a', '.']) {
    utimesSync(join(root, path), base, base);
  }
  return root;
}

describe('newestMtime', () => {
  it('finds the newest file at any depth, and a folder changed by a deletion', () => {
    const root = tree(1_000_000);
    expect(newestMtime(root)).toBe(1_000_000_000);
    utimesSync(join(root, 'a', 'b', 'c', 'deep.ts'), 1_000_500, 1_000_500);
    expect(newestMtime(root)).toBe(1_000_500_000);
    utimesSync(join(root, 'a', 'b'), 1_000_900, 1_000_900);
    expect(newestMtime(root)).toBe(1_000_900_000);
    expect(newestMtime(join(root, 'top.ts'))).toBe(1_000_000_000);
  });

  it('follows symbolic links to folders and files; a missing path or dangling link is 0', () => {
    const root = tree(1_000_000);
    const elsewhere = tree(1_000_000);
    utimesSync(join(elsewhere, 'a', 'b', 'c', 'deep.ts'), 1_002_000, 1_002_000);
    symlinkSync(join(elsewhere, 'a'), join(root, 'linked-folder'));
    symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
    utimesSync(join(root, '.'), 1_000_000, 1_000_000);
    expect(newestMtime(root)).toBe(1_002_000_000);
    expect(newestMtime(join(root, 'absent'))).toBe(0);
  });
});
