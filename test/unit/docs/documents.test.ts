/**
 * The README and docs/ against the repository: the first screen is the quick start, every link
 * between the documents resolves, and the test projects the development doc lists are the ones
 * vitest.config.ts defines (the README once said four when there were five).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
/** The relative link targets of a Markdown document (no URLs, no in-page anchors). */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => (match[1] ?? '').split('#')[0] ?? '')
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target));
}

describe('README.md', () => {
  it('shows what it is, a screenshot and the quick start on its first screen', () => {
    const firstScreen = read('README.md').split('\n').slice(0, 40).join('\n');
    expect(firstScreen).toMatch(/!\[[^\]]+\]\(docs\/screenshots\/[\w-]+\.png\)/);
    expect(firstScreen).toContain('npm install');
    expect(firstScreen).toContain('npx aivory serve');
    expect(firstScreen).toContain('npm start');
  });

  it('links every document in docs/', () => {
    const links = new Set(relativeLinks(read('README.md')));
    for (const document of DOCUMENTS.filter((path) => path !== 'README.md'))
      expect(links, document).toContain(document);
  });
});

describe('the documents', () => {
  it.each(DOCUMENTS)('%s: every relative link resolves to a file of the repository', (path) => {
    const missing = relativeLinks(read(path))
      .map((target) => normalize(join(dirname(path), target)))
      .filter((target) => !existsSync(join(root, target)));
    expect(missing).toEqual([]);
  });
});

describe('docs/development.md', () => {
  it('lists the test projects vitest.config.ts defines, each with its npm script', () => {
    const defined = [...read('vitest.config.ts').matchAll(/project\('([\w-]+)'/g)].map(
      (match) => match[1],
    );
    expect(defined.length).toBeGreaterThan(0);
    const doc = read('docs/development.md');
    const listed = [...doc.matchAll(/^\| `([\w-]+)` +\| `npm run test:([\w-]+)`/gm)];
    expect(listed.map((match) => match[1]).sort()).toEqual([...defined].sort());
    for (const match of listed) expect(match[2]).toBe(match[1]);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
      .scripts;
    for (const name of defined)
      expect(scripts[`test:${name}`]).toBe(`vitest run --project ${name}`);
    const words = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
    expect(doc).toContain(`runs ${words[defined.length] ?? defined.length} vitest projects`);
  });
});
