/**
 * Makes the upgrade fixtures in test/fixtures/upgrade/: databases written by PAST builds of the
 * app, which test/integration/upgrade-fixtures.test.ts opens with today's build (every migration
 * path from each, nothing lost).
 *
 *   node --import tsx scripts/upgrade-fixtures/make.ts          # every era below
 *   node --import tsx scripts/upgrade-fixtures/make.ts 16 17    # only these schema versions
 *
 * For each era it checks the commit out into a temporary `git worktree` (node_modules linked to
 * this checkout's: the script refuses an era whose better-sqlite3, zod or tsx pins differ, since
 * its code would then run against other packages than it shipped with), runs `write-fixture.ts`
 * against THAT commit's `openStore` and store methods, and writes `vN.db` (closed, so checkpointed:
 * no -wal) and `vN.json` (the era, the rows per table and everything written, read back through
 * the era's own code; formatted by the repository's Prettier). The writer is deterministic (a
 * fixed clock, fixed ids): a re-run writes the same files, byte for byte.
 *
 * When you add migration N+1: add `{ version: N, commit: <the last commit of main before your
 * migration> }` to ERAS (a commit whose `migrations/` has N entries), teach write-fixture.ts what
 * the era can store that the last one could not (a `version >= N` branch), run
 * `node --import tsx scripts/upgrade-fixtures/make.ts N`, and commit the two files. The test fails
 * until a fixture at version N exists.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

/** The last commit of main at each schema era that changed what is stored (with its version). */
const ERAS: readonly { version: number; commit: string }[] = [
  { version: 1, commit: 'b2d80e5ec5f04172e2a047f99957fa8f38f87c96' }, // before skills (002)
  { version: 3, commit: '407e4461a49b6b62ceb629886939b68497043671' }, // attachments, no MCP yet
  { version: 4, commit: '41ae270e291bedf85dbc2440fe3ad4030b475860' }, // MCP, before the 005 rebuilds
  { version: 7, commit: 'd5fb4ed2d39a8616583481cedcbde96992949817' }, // turn errors, before vision
  { version: 10, commit: 'e212ebfefe5203876656aaf84dbab378d9e5630b' }, // the message tree
  { version: 13, commit: '0b406f85fd3ca9180daffd95d61f14817389ca45' }, // settings, pins, OAuth
  { version: 16, commit: '5f92ff38de435ca70868d169bc642e5274694881' }, // roots, leases, titles
  { version: 17, commit: 'ce878d989fe5185ae9c69e73042832687e690c4c' }, // server features
];

/** Packages the era's store code runs on from this checkout's node_modules. */
const PINNED = ['better-sqlite3', 'zod', 'tsx'];

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(root, 'test/fixtures/upgrade');
const writer = fileURLToPath(new URL('./write-fixture.ts', import.meta.url));

mkdirSync(fixtures, { recursive: true });
const wanted = process.argv.slice(2).map(Number);
for (const era of ERAS.filter((item) => wanted.length === 0 || wanted.includes(item.version))) {
  await makeFixture(era.version, era.commit);
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
}

async function makeFixture(version: number, commit: string): Promise<void> {
  const worktree = join(mkdtempSync(join(tmpdir(), 'aivory-era-')), `v${version}`);
  git('worktree', 'add', '--quiet', '--detach', worktree, commit);
  try {
    const migrations = readdirSync(join(worktree, 'src/main/adapters/sqlite/migrations')).filter(
      (name) => /^\d{3}_/.test(name),
    );
    if (migrations.length !== version) {
      throw new Error(`${commit} has ${migrations.length} migrations, not ${version}`);
    }
    checkPins(worktree, commit);
    symlinkSync(join(root, 'node_modules'), join(worktree, 'node_modules'), 'dir');
    const db = join(worktree, `v${version}.db`);
    const manifest = join(worktree, `v${version}.json`);
    execFileSync(
      process.execPath,
      ['--import', 'tsx', writer, worktree, String(version), db, manifest],
      {
        cwd: worktree,
        stdio: 'inherit',
      },
    );
    const written = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    const era = {
      commit,
      date: git('log', '-1', '--format=%cI', commit),
      subject: git('log', '-1', '--format=%s', commit).slice(0, 120),
    };
    copyFileSync(db, join(fixtures, `v${version}.db`));
    const manifestFile = join(fixtures, `v${version}.json`);
    const text = JSON.stringify({ era, ...written });
    const options = await prettier.resolveConfig(manifestFile);
    writeFileSync(
      manifestFile,
      await prettier.format(text, { ...options, filepath: manifestFile }),
    );
    console.log(`v${version}: ${commit.slice(0, 7)} ${era.subject.slice(0, 60)}`);
  } finally {
    // The link first, by itself: removing the worktree must never reach this checkout's packages.
    rmSync(join(worktree, 'node_modules'), { force: true });
    git('worktree', 'remove', '--force', worktree);
    rmSync(dirname(worktree), { recursive: true, force: true });
  }
}

/** The era must pin the same versions of the packages its code runs on from here. */
function checkPins(worktree: string, commit: string): void {
  type Manifest = {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const read = (path: string): Manifest => JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  const pin = (manifest: Manifest, name: string): string | undefined =>
    manifest.dependencies?.[name] ?? manifest.devDependencies?.[name];
  const today = read(join(root, 'package.json'));
  const then = read(join(worktree, 'package.json'));
  for (const name of PINNED) {
    if (pin(today, name) !== pin(then, name)) {
      throw new Error(
        `${commit.slice(0, 7)} pins ${name} ${pin(then, name) ?? '(none)'}, this checkout ` +
          `${pin(today, name) ?? '(none)'}: install that era's own node_modules instead of the link`,
      );
    }
  }
  if (!existsSync(join(root, 'node_modules'))) throw new Error('run npm install first');
}
