/**
 * The knowledge store over a real SQLite file: a file's passages diffed by hash (unchanged rows
 * kept by id), the external-content FTS index kept in step by its triggers (replace, delete,
 * cascade), citations and bounded results.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { FileOutcome, NewKnowledgeChunk } from '../../src/main/core/ports';
import { AivoryError } from '../../src/shared/errors';

function chunk(text: string, first: number, last: number): NewKnowledgeChunk {
  const contentHash = createHash('sha256').update(text).digest('hex');
  return { text, contentHash, location: { lines: [first, last] } };
}

function outcome(relativePath: string, chunks: NewKnowledgeChunk[]): FileOutcome {
  return {
    relativePath,
    size: 100,
    mtimeMs: 1,
    contentHash: 'h',
    kind: 'markdown',
    status: 'indexed',
    reason: null,
    chunks,
  };
}

describe('SqliteKnowledge', () => {
  let dir: string;
  let store: SqliteStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'aivory-knowledge-store-'));
    store = openStore(join(dir, 'aivory.db'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps unchanged passages by id and re-indexes only the changed one', () => {
    const knowledge = store.knowledge;
    const folder = knowledge.addFolder({ id: 'kf1', name: 'notes', path: '/tmp/notes' });
    knowledge.recordFile(
      folder.id,
      outcome('a.md', [chunk('alpha apples', 1, 3), chunk('bravo bananas', 5, 9)]),
    );
    const [file] = knowledge.listFiles(folder.id);
    const before = knowledge.fileChunks(file!.id);
    const changes = knowledge.recordFile(
      folder.id,
      outcome('a.md', [chunk('alpha apples', 1, 3), chunk('charlie cherries', 5, 9)]),
    );
    expect(changes).toEqual({ kept: 1, added: 1, removed: 1 });
    const after = knowledge.fileChunks(file!.id);
    expect(after[0]!.id).toBe(before[0]!.id);
    expect(after[1]!.id).not.toBe(before[1]!.id);
    expect(knowledge.search('bananas')).toEqual([]);
    const [hit] = knowledge.search('cherries');
    expect(hit).toMatchObject({
      folder: 'notes',
      relativePath: 'a.md',
      citation: 'notes:a.md#L5-L9',
    });
    expect(hit!.snippet).toContain('cherries');
  });

  it('drops passages from the index when a file is skipped, removed or its folder removed', () => {
    const knowledge = store.knowledge;
    const folder = knowledge.addFolder({ id: 'kf1', name: 'notes', path: '/tmp/notes' });
    knowledge.recordFile(folder.id, outcome('a.md', [chunk('delta dates', 1, 1)]));
    knowledge.recordFile(folder.id, outcome('b.md', [chunk('echo elderberries', 1, 1)]));
    knowledge.recordFile(folder.id, {
      ...outcome('a.md', []),
      status: 'skipped',
      reason: 'too large',
    });
    expect(knowledge.search('dates')).toEqual([]);
    const b = knowledge.listFiles(folder.id).find((file) => file.relativePath === 'b.md');
    knowledge.removeFiles([b!.id]);
    expect(knowledge.search('elderberries')).toEqual([]);
    knowledge.recordFile(folder.id, outcome('c.md', [chunk('foxtrot figs', 1, 1)]));
    expect(knowledge.search('figs')).toHaveLength(1);
    expect(knowledge.removeFolder('notes')).toBe(true);
    expect(knowledge.search('figs')).toEqual([]);
    expect(knowledge.listFolders()).toEqual([]);
  });

  it('refuses a second folder with the same name, bounds results and filters by folder', () => {
    const knowledge = store.knowledge;
    const one = knowledge.addFolder({ id: 'kf1', name: 'one', path: '/tmp/one' });
    const two = knowledge.addFolder({ id: 'kf2', name: 'two', path: '/tmp/two' });
    expect(() => knowledge.addFolder({ id: 'kf3', name: 'one', path: '/x' })).toThrow(AivoryError);
    const many = Array.from({ length: 150 }, (_, index) =>
      chunk(`golf grapes ${index}`, index + 1, index + 1),
    );
    knowledge.recordFile(one.id, outcome('many.md', many));
    knowledge.recordFile(two.id, {
      ...outcome('doc.pdf', []),
      chunks: [{ ...chunk('golf grapes on a page', 1, 1), location: { page: 3 } }],
    });
    expect(knowledge.search('grapes', { limit: 1000 })).toHaveLength(100);
    const [pdfHit] = knowledge.search('grapes', { folder: 'two' });
    expect(pdfHit!.citation).toBe('two:doc.pdf#page=3');
    expect(knowledge.search('"(')).toEqual([]);
    const [summary] = knowledge.listFolders();
    expect(summary).toMatchObject({ name: 'one', chunks: 150, files: { indexed: 1 } });
  });
});
