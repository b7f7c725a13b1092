/**
 * LocalArchiveStore on a real directory: the archive a save replaces is kept as the previous
 * generation, a failed save (a stream, or a writer into `putWith`) leaves both generations as they were, deleting a conversation removes
 * both, pruning ages both out, and the session index reads what older versions wrote.
 */
import { mkdtempSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LocalArchiveStore, parseSessionIndex, PREVIOUS_SUFFIX } from '../src/archive-store';

function store(): { archives: LocalArchiveStore; directory: string } {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-store-'));
  return { archives: new LocalArchiveStore(directory), directory };
}

const body = (text: string) => Readable.from([Buffer.from(text)]);

function failing(text: string): Readable {
  return new Readable({
    read() {
      this.push(Buffer.from(text));
      this.destroy(new Error('tar exited with 2'));
    },
  });
}

/** The files in the store's directory, as name → content (the index left out). */
function contents(directory: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(directory)
      .filter((name) => name !== 'sessions.json')
      .map((name) => [
        name.replace(/^[0-9a-f]{64}/, 'ARCHIVE'),
        readFileSync(join(directory, name), 'utf8'),
      ]),
  );
}

describe('LocalArchiveStore generations', () => {
  it('keeps the archive a save replaced as the previous generation', async () => {
    const { archives, directory } = store();
    await archives.put('conv', body('first'));
    expect(contents(directory)).toEqual({ 'ARCHIVE.tar.gz': 'first' });
    await archives.put('conv', body('second'));
    expect(contents(directory)).toEqual({
      'ARCHIVE.tar.gz': 'second',
      [`ARCHIVE.tar.gz${PREVIOUS_SUFFIX}`]: 'first',
    });
    await archives.put('conv', body('third'));
    expect(contents(directory)).toEqual({
      'ARCHIVE.tar.gz': 'third',
      [`ARCHIVE.tar.gz${PREVIOUS_SUFFIX}`]: 'second',
    });
  });

  it('a save that fails leaves both generations untouched and no partial file', async () => {
    const { archives, directory } = store();
    await archives.put('conv', body('first'));
    await archives.put('conv', body('second'));
    await expect(archives.put('conv', failing('half of a thi'))).rejects.toThrow(/tar exited/);
    expect(contents(directory)).toEqual({
      'ARCHIVE.tar.gz': 'second',
      [`ARCHIVE.tar.gz${PREVIOUS_SUFFIX}`]: 'first',
    });
  });

  it('putWith: a writer that fails after writing leaves the store as it was; one that ends is kept', async () => {
    const { archives, directory } = store();
    await archives.put('conv', body('first'));
    const big = Buffer.alloc(20 * 1024 * 1024, 'x');
    // Past the periodic flushes: the failure comes after bytes reached the disk.
    await expect(
      archives.putWith('conv', async (sink) => {
        await new Promise<void>((resolve, reject) =>
          sink.write(big, (error) => (error ? reject(error) : resolve())),
        );
        throw new Error('tar failed with exit code 2');
      }),
    ).rejects.toThrow(/exit code 2/);
    expect(contents(directory)).toEqual({ 'ARCHIVE.tar.gz': 'first' });
    await archives.putWith('conv', async (sink) => {
      sink.write(Buffer.from('sec'));
      sink.end(Buffer.from('ond'));
    });
    expect(contents(directory)).toEqual({
      'ARCHIVE.tar.gz': 'second',
      [`ARCHIVE.tar.gz${PREVIOUS_SUFFIX}`]: 'first',
    });
  });

  it('delete removes both generations; prune ages out both', async () => {
    const { archives, directory } = store();
    await archives.put('gone', body('a'));
    await archives.put('gone', body('b'));
    await archives.delete('gone');
    expect(contents(directory)).toEqual({});

    await archives.put('old', body('a'));
    await archives.put('old', body('b'));
    const longAgo = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    for (const name of readdirSync(directory)) utimesSync(join(directory, name), longAgo, longAgo);
    await archives.put('new', body('c'));
    expect(await archives.prune(30)).toBe(2);
    expect(Object.values(contents(directory))).toEqual(['c']);
  });
});

describe('a damaged newest archive', () => {
  it('is kept aside under .damaged-<time>; the previous one becomes the newest', async () => {
    const { archives, directory } = store();
    await archives.put('conv', body('good'));
    await archives.put('conv', body('damag'));
    const keptAs = await archives.setAsideDamaged('conv', Date.parse('2026-12-02T18:00:01.5Z'));
    expect(keptAs).toMatch(/^[0-9a-f]{64}\.tar\.gz\.damaged-2026-12-02T18-00-01-500Z$/);
    expect(contents(directory)).toEqual({
      'ARCHIVE.tar.gz': 'good',
      'ARCHIVE.tar.gz.damaged-2026-12-02T18-00-01-500Z': 'damag',
    });
    // The next save makes the restored archive the previous generation; the damaged one stays.
    await archives.put('conv', body('newer'));
    expect(contents(directory)).toEqual({
      'ARCHIVE.tar.gz': 'newer',
      [`ARCHIVE.tar.gz${PREVIOUS_SUFFIX}`]: 'good',
      'ARCHIVE.tar.gz.damaged-2026-12-02T18-00-01-500Z': 'damag',
    });
    // Deleting the conversation removes it too; pruning ages it out like the others.
    await archives.delete('conv');
    expect(contents(directory)).toEqual({});
    await archives.put('old', body('a'));
    await archives.put('old', body('b'));
    await archives.setAsideDamaged('old');
    const longAgo = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    for (const name of readdirSync(directory)) utimesSync(join(directory, name), longAgo, longAgo);
    expect(await archives.prune(30)).toBe(2);
    expect(contents(directory)).toEqual({});
  });

  it('without a previous archive nothing changes', async () => {
    const { archives, directory } = store();
    await archives.put('conv', body('only'));
    await expect(archives.setAsideDamaged('conv')).rejects.toThrow(/ENOENT/);
    expect(contents(directory)).toEqual({ 'ARCHIVE.tar.gz': 'only' });
  });
});

describe('session index', () => {
  it('reads entries with start times and the bare conversation ids older versions wrote', () => {
    expect(
      parseSessionIndex(
        JSON.stringify({
          c1: 'conv-old',
          c2: { conversation: 'conv-new', started_at: '2026-12-02T10:00:00.123Z' },
          c3: { conversation: 7 },
          c4: null,
        }),
      ),
    ).toEqual({
      c1: { conversation: 'conv-old', started_at: null },
      c2: { conversation: 'conv-new', started_at: '2026-12-02T10:00:00.123Z' },
    });
    expect(parseSessionIndex('not json')).toEqual({});
  });

  it('reads kept containers with since when and why; malformed kept fields are left out', () => {
    const text = JSON.stringify({
      c2: {
        conversation: 'conv-kept',
        started_at: '2026-12-02T10:00:00.000Z',
        kept: { since: '2026-12-02T11:00:00.000Z', error: 'ENOSPC' },
      },
      c3: { conversation: 'conv-odd', started_at: null, kept: { since: 5 } },
    });
    expect(parseSessionIndex(text).c2).toEqual({
      conversation: 'conv-kept',
      started_at: '2026-12-02T10:00:00.000Z',
      kept: { since: '2026-12-02T11:00:00.000Z', error: 'ENOSPC' },
    });
    expect(parseSessionIndex(text).c3).toEqual({ conversation: 'conv-odd', started_at: null });
  });
});
