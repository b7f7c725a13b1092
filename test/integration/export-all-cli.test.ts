/**
 * Every conversation exported at once (issue 42, item 6): `aivory conversations export --all`
 * with a real database and real files. The ZIP, opened by the system's `unzip`, and the folder
 * tree hold one folder per conversation (titles as safe names, duplicates numbered, Unicode and
 * right-to-left titles kept) with the same document the one-conversation export writes — its
 * file links pointing into `files/` — the files themselves byte for byte, and an index. A full
 * disk says so and leaves nothing behind; a cancel keeps nothing.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { dataFileRoots, resolveDataFile } from '../../src/main/host/files/data-files';
import { openZipWriter } from '../../src/main/services/archive-writers';
import { writeConversationsArchive } from '../../src/main/services/conversations-archive';
import type { MessagePart } from '../../src/shared/dto';
import { AivoryError } from '../../src/shared/errors';
import { cliEnv, makeDataDir, runCli, withoutBuildNotes } from '../support/run-cli';
import { mountSmallDisk } from '../support/storage-faults';
import type { SmallDisk } from '../support/storage-faults';

const ATTACHED = 'a,b\n1,2\n';
/** Incompressible bytes: a produced image as deflate would meet it. */
const PRODUCED = randomBytes(300 * 1024);

interface Seeded {
  home: string;
  /** Conversation ids by their role in the test. */
  ids: { report: string; reportAgain: string; arabic: string; unsafe: string; missing: string };
  attachmentPath: string;
  artifactPath: string;
}

/**
 * Five conversations: one with an attachment and a produced file, another with the same title,
 * a right-to-left title, a title with characters no file name may hold, and one whose file is gone.
 */
function seed(): Seeded {
  const home = makeDataDir();
  const store = openStore(join(home, 'aivory.db'));
  const conversations = store.conversations;
  const create = (id: string, title: string, parts: MessagePart[][]) => {
    conversations.createConversation({ id, title, modelId: null });
    parts.forEach((messageParts, index) =>
      conversations.createMessage({
        id: `${id}-m${index}`,
        conversationId: id,
        role: index % 2 === 0 ? 'user' : 'assistant',
        status: 'complete',
        parts: messageParts,
      }),
    );
  };
  const uploads = join(home, 'uploads', 'c-report');
  const artifacts = join(home, 'artifacts', 'c-report');
  mkdirSync(uploads, { recursive: true });
  mkdirSync(artifacts, { recursive: true });
  const attachmentPath = join(uploads, 'data.csv');
  const artifactPath = join(artifacts, 'chart (1).png');
  writeFileSync(attachmentPath, ATTACHED);
  writeFileSync(artifactPath, PRODUCED);
  const attachment = { name: 'data.csv', path: attachmentPath, mime: 'text/csv', size: 8 };
  const artifact = {
    name: 'chart (1).png',
    path: artifactPath,
    mime: 'image/png',
    size: PRODUCED.byteLength,
  };
  create('c-report', 'Quarterly report', [
    [
      { kind: 'text', text: 'Plot this <b>please</b>' },
      { kind: 'attachment', attachment },
    ],
    [
      { kind: 'text', text: 'Here it is.' },
      { kind: 'artifact', artifact },
      { kind: 'artifact', artifact },
    ],
  ]);
  create('c-report-2', 'Quarterly report', [[{ kind: 'text', text: 'Again' }]]);
  create('c-arabic', 'مرحبا بالعالم', [
    [{ kind: 'text', text: 'سلام' }],
    [{ kind: 'text', text: 'مرحبا! 👋' }],
  ]);
  create('c-unsafe', 'a/b: "c" <d>|e?', [[{ kind: 'text', text: 'x' }]]);
  create('c-missing', 'Lost file', [
    [
      {
        kind: 'attachment',
        attachment: {
          name: 'gone.txt',
          path: join(uploads, 'gone.txt'),
          mime: 'text/plain',
          size: 1,
        },
      },
    ],
  ]);
  store.close();
  return {
    home,
    ids: {
      report: 'c-report',
      reportAgain: 'c-report-2',
      arabic: 'c-arabic',
      unsafe: 'c-unsafe',
      missing: 'c-missing',
    },
    attachmentPath,
    artifactPath,
  };
}

/** What `aivory conversations export ID` writes, the files' paths as the archive links them. */
async function singleExport(
  seeded: Seeded,
  id: string,
  format: 'md' | 'json',
  links: Record<string, string> = {},
): Promise<string> {
  const result = await runCli(
    ['conversations', 'export', id, '--format', format],
    cliEnv(seeded.home),
  );
  expect(withoutBuildNotes(result.stderr)).toBe('');
  let text = result.stdout;
  for (const [from, to] of Object.entries(links)) {
    const encode = (path: string) =>
      format === 'json'
        ? JSON.stringify(path).slice(1, -1)
        : encodeURI(path).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    text = text.split(encode(from)).join(encode(to));
  }
  return text;
}

let seeded: Seeded;
let work: string;
beforeAll(() => {
  seeded = seed();
  work = mkdtempSync(join(tmpdir(), 'aivory-export-all-'));
});
afterAll(() => {
  rmSync(seeded.home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

let disk: SmallDisk | null = null;
afterEach(() => {
  disk?.remove();
  disk = null;
});

/** Every file under `root`, as `/`-separated relative paths, sorted. */
function listTree(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      return entry.isDirectory() ? listTree(root, path) : [path];
    })
    .sort();
}

describe('aivory conversations export --all', () => {
  it('a ZIP: a folder per conversation with its document, its files and an index', async () => {
    const archive = join(work, 'all.zip');
    const result = await runCli(
      ['conversations', 'export', '--all', '--output', archive],
      cliEnv(seeded.home),
    );
    expect(withoutBuildNotes(result.stderr)).toBe(
      '1 file the conversations refer to was not found and is not included.\n',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^Exported 5 conversations \\(2 files\\) to ${archive} \\(\\d+(\\.\\d)? KiB\\)\\.\\n$`,
      ),
    );
    expect(readdirSync(work)).toEqual(['all.zip']);
    // The system's unzip reads it whole, names in UTF-8, every CRC right.
    execFileSync('unzip', ['-tq', archive]);
    const tree = join(work, 'all');
    execFileSync('unzip', ['-q', archive, '-d', tree]);
    expect(listTree(tree)).toEqual(
      [
        'Lost file/conversation.md',
        'Quarterly report (2)/conversation.md',
        'Quarterly report/conversation.md',
        'Quarterly report/files/chart (1).png',
        'Quarterly report/files/data.csv',
        'a_b_ _c_ _d__e_/conversation.md',
        'index.md',
        'مرحبا بالعالم/conversation.md',
      ].sort(),
    );
    expect(readFileSync(join(tree, 'Quarterly report/files/data.csv'), 'utf8')).toBe(ATTACHED);
    expect(readFileSync(join(tree, 'Quarterly report/files/chart (1).png'))).toEqual(PRODUCED);
    // The documents are the one-conversation exports, the file links pointing into files/.
    expect(readFileSync(join(tree, 'Quarterly report/conversation.md'), 'utf8')).toBe(
      await singleExport(seeded, seeded.ids.report, 'md', {
        [seeded.attachmentPath]: 'files/data.csv',
        [seeded.artifactPath]: 'files/chart (1).png',
      }),
    );
    expect(readFileSync(join(tree, 'Quarterly report/conversation.md'), 'utf8')).toContain(
      '**File** [chart (1).png](files/chart%20%281%29.png) (image/png, 307200 bytes)',
    );
    for (const [folder, id] of [
      ['Quarterly report (2)', seeded.ids.reportAgain],
      ['مرحبا بالعالم', seeded.ids.arabic],
      ['a_b_ _c_ _d__e_', seeded.ids.unsafe],
      // A file that is gone keeps its old link; nothing is made up for it.
      ['Lost file', seeded.ids.missing],
    ] as const) {
      expect(readFileSync(join(tree, folder, 'conversation.md'), 'utf8')).toBe(
        await singleExport(seeded, id, 'md'),
      );
    }
    const index = readFileSync(join(tree, 'index.md'), 'utf8');
    expect(index).toMatch(
      /^# Aivory conversations\n\nExported from Aivory · \S+ · 5 conversations\n/,
    );
    expect(index).toContain('| [Quarterly report](Quarterly%20report/conversation.md) | ');
    expect(index).toContain('| [a/b: "c" &lt;d>\\|e?](a_b_%20_c_%20_d__e_/conversation.md) | ');
    expect(index).toMatch(
      /\| \[Quarterly report\]\(Quarterly%20report\/conversation\.md\) \| \d{4}-\d\d-\d\d \d\d:\d\d UTC \| \d{4}-\d\d-\d\d \d\d:\d\d UTC \| 2 \| 2 \|\n/,
    );
  });

  it('a folder tree in JSON, when the output is a folder', async () => {
    const parent = join(work, 'tree');
    mkdirSync(parent);
    const result = await runCli(
      ['conversations', 'export', '--all', '--format', 'json', '--output', parent],
      cliEnv(seeded.home),
    );
    expect(result.code).toBe(0);
    const [name] = readdirSync(parent);
    expect(name).toMatch(/^aivory-conversations-\d{4}-\d\d-\d\d$/);
    const root = join(parent, name!);
    expect(result.stdout).toContain(` to ${root} (`);
    expect(listTree(root)).toContain('Quarterly report/files/chart (1).png');
    expect(readFileSync(join(root, 'Quarterly report/conversation.json'), 'utf8')).toBe(
      await singleExport(seeded, seeded.ids.report, 'json', {
        [seeded.attachmentPath]: 'files/data.csv',
        [seeded.artifactPath]: 'files/chart (1).png',
      }),
    );
    expect(readFileSync(join(root, 'مرحبا بالعالم/conversation.json'), 'utf8')).toBe(
      await singleExport(seeded, seeded.ids.arabic, 'json'),
    );
    const index = JSON.parse(readFileSync(join(root, 'index.json'), 'utf8')) as {
      format: string;
      conversations: { id: string; title: string; document: string; files: { path: string }[] }[];
    };
    expect(index.format).toBe('aivory-conversations');
    const report = index.conversations.find((entry) => entry.id === seeded.ids.report);
    expect(report).toMatchObject({
      title: 'Quarterly report',
      document: 'Quarterly report/conversation.json',
      files: [
        { path: 'Quarterly report/files/data.csv' },
        { path: 'Quarterly report/files/chart (1).png' },
      ],
    });
    expect(index.conversations.map((entry) => entry.id).sort()).toEqual(
      Object.values(seeded.ids).sort(),
    );

    // A second export beside the first is numbered, never mixed into it.
    const again = await runCli(
      ['conversations', 'export', '--all', '--output', `${parent}/`],
      cliEnv(seeded.home),
    );
    expect(again.code).toBe(0);
    expect(readdirSync(parent).sort()).toEqual([name, `${name} (2)`]);
  });

  it('on a full disk: says so, and leaves no archive or part of one', async () => {
    disk = mountSmallDisk(256 * 1024);
    const archive = join(disk.dir, 'all.zip');
    const result = await runCli(
      ['conversations', 'export', '--all', '--output', archive],
      cliEnv(seeded.home),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `The disk holding ${disk.dir} is full. Free some space on it, then try again.`,
    );
    expect(result.stdout).toBe('');
    expect(readdirSync(disk.dir)).toEqual([]);

    const folder = await runCli(
      ['conversations', 'export', '--all', '--output', `${disk.dir}/`],
      cliEnv(seeded.home),
    );
    expect(folder.code).toBe(1);
    expect(folder.stderr).toContain(`The disk holding ${disk.dir} is full.`);
    expect(readdirSync(disk.dir)).toEqual([]);
  });

  it('a read-only folder: says so, nothing written', async () => {
    disk = mountSmallDisk(1024 * 1024);
    disk.setReadOnly(true);
    const result = await runCli(
      ['conversations', 'export', '--all', '--output', join(disk.dir, 'all.zip')],
      cliEnv(seeded.home),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Aivory cannot write to ${disk.dir} (EROFS).`);
    expect(readdirSync(disk.dir)).toEqual([]);
  });

  it('canceled after the first conversation: canceled, nothing kept', async () => {
    const store = openStore(join(seeded.home, 'aivory.db'));
    try {
      const controller = new AbortController();
      const path = join(work, 'canceled', 'all.zip');
      mkdirSync(join(work, 'canceled'));
      const failure = await writeConversationsArchive(
        {
          conversations: store.conversations,
          resolveFile: (file) => resolveDataFile(dataFileRoots(seeded.home, {}), file),
        },
        await openZipWriter(path),
        {
          format: 'md',
          signal: controller.signal,
          onProgress: ({ done }) => {
            if (done === 1) controller.abort();
          },
        },
      ).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AivoryError);
      expect((failure as AivoryError).code).toBe('canceled');
      expect((failure as AivoryError).message).toBe('The export was canceled; nothing was kept.');
      expect(readdirSync(join(work, 'canceled'))).toEqual([]);
    } finally {
      store.close();
    }
  });
});
