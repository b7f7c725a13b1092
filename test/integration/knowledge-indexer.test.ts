/**
 * Knowledge folders end to end in process: a real folder of mixed files (Markdown, code, HTML,
 * CSV, a real PDF and a damaged one, a binary under a .txt name, a symbolic link out of the
 * folder, a FIFO, a sparse 2 GiB log, an Office file, a hidden folder) indexed into a real SQLite
 * file with the real PDF extractor; each file's status, search with citations, then an edit, a
 * delete and a rename read back through catch-up scans.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { createFolderFiles } from '../../src/main/adapters/knowledge/folder-files';
import { createPdfTextExtractor } from '../../src/main/adapters/fetch/pdf-text-extractor';
import { KnowledgeService } from '../../src/main/services/knowledge/knowledge-service';
import { buildTinyPdf } from '../support/fetch-pdf';

/** A Markdown note of eight ~600-character paragraphs, a distinct word in each. */
function note(words: string[]): string {
  return words
    .map(
      (word, index) => `## Part ${index}\n\n${`${word} `.repeat(1)}${'filler text '.repeat(48)}\n`,
    )
    .join('\n');
}

const NOTE_WORDS = ['alphorn', 'bassoon', 'celesta', 'dulcimer', 'euphonium', 'flugelhorn'];

describe('knowledge folders', () => {
  let dir: string;
  let folder: string;
  let store: SqliteStore;
  let knowledge: KnowledgeService;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'aivory-knowledge-'));
    folder = join(dir, 'notes');
    mkdirSync(join(folder, 'src'), { recursive: true });
    mkdirSync(join(folder, '.git'));
    writeFileSync(join(folder, '.git', 'config'), 'hiddenword');
    writeFileSync(join(folder, 'journal.md'), note(NOTE_WORDS));
    writeFileSync(
      join(folder, 'src', 'app.py'),
      'import os\n\n\ndef quokka_factor():\n    return "quokkafactor"\n',
    );
    writeFileSync(
      join(folder, 'page.html'),
      '<html><head><title>t</title>\n<script>\nvar scriptword = 1;\n</script></head>\n<body>\n<p>The <b>marzipan</b>lamp &amp; co</p>\n<p>line six</p>\n</body></html>\n',
    );
    writeFileSync(join(folder, 'ledger.csv'), 'date,item\n2024-01-01,tangerine\n2024-01-02,plum\n');
    writeFileSync(join(folder, 'report.pdf'), buildTinyPdf('obsidian falcon quarterly'));
    writeFileSync(join(folder, 'broken.pdf'), '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\ngarbage');
    writeFileSync(
      join(folder, 'photo.txt'),
      Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64)]),
    );
    writeFileSync(join(dir, 'outside.md'), 'outsideword secret');
    symlinkSync(join(dir, 'outside.md'), join(folder, 'link.md'));
    execFileSync('mkfifo', [join(folder, 'pipe.txt')]);
    writeFileSync(join(folder, 'huge.log'), '');
    truncateSync(join(folder, 'huge.log'), 2 * 1024 ** 3);
    writeFileSync(join(folder, 'slides.pptx'), 'PK');
    store = openStore(join(dir, 'aivory.db'));
    let next = 0;
    knowledge = new KnowledgeService({
      store: store.knowledge,
      files: createFolderFiles(),
      pdf: createPdfTextExtractor(),
      ids: { next: (prefix) => `${prefix}${(next += 1)}` },
    });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function fileStatus(relativePath: string) {
    const { files } = knowledge.status('notes');
    return files.find((file) => file.relativePath === relativePath);
  }

  it("says what became of each file and finds each readable kind's text with its citation", async () => {
    const { summary } = await knowledge.add(folder, undefined);
    expect(summary).toMatchObject({ indexed: 5, read: 11 });
    expect(fileStatus('journal.md')).toMatchObject({ status: 'indexed', kind: 'markdown' });
    expect(fileStatus('src/app.py')).toMatchObject({ status: 'indexed', kind: 'code' });
    expect(fileStatus('page.html')).toMatchObject({ status: 'indexed', kind: 'html' });
    expect(fileStatus('ledger.csv')).toMatchObject({ status: 'indexed', kind: 'csv' });
    expect(fileStatus('report.pdf')).toMatchObject({ status: 'indexed', kind: 'pdf' });
    expect(fileStatus('broken.pdf')).toMatchObject({ status: 'failed' });
    expect(fileStatus('broken.pdf')!.reason).toMatch(/^the PDF could not be read/);
    expect(fileStatus('photo.txt')).toMatchObject({
      status: 'skipped',
      reason: 'not text: the bytes are PNG under a text name',
    });
    expect(fileStatus('link.md')).toMatchObject({
      status: 'skipped',
      reason: 'a symbolic link (links are not followed)',
    });
    expect(fileStatus('pipe.txt')).toMatchObject({
      status: 'skipped',
      reason: 'not a regular file (a FIFO, socket or device)',
    });
    expect(fileStatus('huge.log')).toMatchObject({
      status: 'skipped',
      reason: 'too large (2 GiB; the limit is 20 MiB)',
    });
    expect(fileStatus('slides.pptx')).toMatchObject({ status: 'skipped' });
    expect(fileStatus('slides.pptx')!.reason).toMatch(/^not read yet/);
    expect(fileStatus('.git/config')).toBeUndefined();

    const cite = (query: string) => knowledge.search(query).map((hit) => hit.citation);
    expect(cite('quokkafactor')).toEqual(['notes:src/app.py#L1-L5']);
    expect(cite('marzipan')).toEqual(['notes:page.html#L1-L7']);
    expect(cite('scriptword')).toEqual([]);
    expect(cite('tangerine')).toEqual(['notes:ledger.csv#L1-L3']);
    expect(cite('obsidian falcon')).toEqual(['notes:report.pdf#page=1']);
    expect(cite('outsideword')).toEqual([]);
    expect(cite('hiddenword')).toEqual([]);
    const [hit] = knowledge.search('euphonium');
    expect(hit!.relativePath).toBe('journal.md');
    const lines = note(NOTE_WORDS).split('\n');
    const [first, last] = (hit!.location as { lines: [number, number] }).lines;
    expect(lines.slice(first - 1, last).join('\n')).toContain('euphonium');
  });

  it('re-reads only an edited file and replaces only its changed passage; delete and rename', async () => {
    await knowledge.add(folder, 'notes');
    const journal = fileStatus('journal.md')!;
    const before = store.knowledge.fileChunks(journal.id);
    expect(before.length).toBeGreaterThanOrEqual(3);

    writeFileSync(
      join(folder, 'journal.md'),
      note(NOTE_WORDS.map((word) => (word === 'euphonium' ? 'theremin' : word))),
    );
    const edited = await knowledge.reindex('notes');
    expect(edited).toMatchObject({ read: 1, indexed: 1, unchanged: 10 });
    expect(edited.chunks).toEqual({ kept: before.length - 1, added: 1, removed: 1 });
    const after = store.knowledge.fileChunks(journal.id);
    const keptIds = after.filter((chunk) => before.some((old) => old.id === chunk.id));
    expect(keptIds).toHaveLength(before.length - 1);
    expect(knowledge.search('euphonium')).toEqual([]);
    expect(knowledge.search('theremin')[0]!.relativePath).toBe('journal.md');

    const unchanged = await knowledge.reindex('notes');
    expect(unchanged).toMatchObject({ read: 0, unchanged: 11 });

    unlinkSync(join(folder, 'ledger.csv'));
    const python = fileStatus('src/app.py')!;
    const pythonChunks = store.knowledge.fileChunks(python.id);
    renameSync(join(folder, 'src', 'app.py'), join(folder, 'moved.py'));
    const moved = await knowledge.reindex('notes');
    expect(moved).toMatchObject({ read: 0, removed: 1, renamed: 1 });
    expect(knowledge.search('tangerine')).toEqual([]);
    expect(knowledge.search('quokkafactor').map((hit) => hit.citation)).toEqual([
      'notes:moved.py#L1-L5',
    ]);
    expect(fileStatus('moved.py')!.id).toBe(python.id);
    expect(store.knowledge.fileChunks(python.id)).toEqual(pythonChunks);
  });

  it('refuses a name taken by another folder and drops the index, never the files', async () => {
    await knowledge.add(folder, 'notes');
    const other = join(dir, 'other');
    mkdirSync(other);
    await expect(knowledge.add(other, 'notes')).rejects.toThrow(/exists already/);
    const resumed = await knowledge.add(folder, 'notes');
    expect(resumed).toMatchObject({ resumed: true, summary: { read: 0 } });
    knowledge.remove('notes');
    expect(knowledge.list()).toEqual([]);
    expect(knowledge.search('quokkafactor')).toEqual([]);
    expect(() => knowledge.status('notes')).toThrow(/No knowledge folder is named "notes"/);
    expect(execFileSync('cat', [join(folder, 'src', 'app.py')], { encoding: 'utf8' })).toContain(
      'quokkafactor',
    );
  });
});
