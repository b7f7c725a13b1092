/**
 * The "/" palette's rules: where a "/word" starts (the box's start or after white space, the
 * caret right after it) and which templates match it, best first; and a file's kind for its chip.
 */
import { describe, expect, it } from 'vitest';
import { matchTemplates, slashQueryAt } from '../../../src/renderer/features/composer/slash-query';
import { fileKind, hasThumbnail } from '../../../src/renderer/state/file-kind';

function template(title: string, tags: string[] = []) {
  return { id: title, title, body: '', tags, variables: [], createdAt: 0, updatedAt: 0 };
}

describe('slashQueryAt', () => {
  it('finds "/" at the start or after white space, the word up to the caret', () => {
    expect(slashQueryAt('/', 1)).toEqual({ start: 0, end: 1, query: '' });
    expect(slashQueryAt('/sum', 4)).toEqual({ start: 0, end: 4, query: 'sum' });
    expect(slashQueryAt('Hi /tr', 6)).toEqual({ start: 3, end: 6, query: 'tr' });
    expect(slashQueryAt('line\n/翻译', 8)).toEqual({ start: 5, end: 8, query: '翻译' });
  });

  it('ignores a slash inside a word, a path, a word after the caret and long words', () => {
    expect(slashQueryAt('and/or', 6)).toBeNull();
    expect(slashQueryAt('/usr/bin', 8)).toBeNull();
    expect(slashQueryAt('/sum more', 9)).toBeNull();
    expect(slashQueryAt('/sum', 0)).toBeNull();
    expect(slashQueryAt(`/${'a'.repeat(41)}`, 42)).toBeNull();
    expect(slashQueryAt(`x${'a'.repeat(40)}/ab`, 44)).toBeNull();
    expect(slashQueryAt(`${'a'.repeat(60)} /ab`, 64)).toEqual({ start: 61, end: 64, query: 'ab' });
  });
});

describe('matchTemplates', () => {
  const library = [
    template('Summarise a file'),
    template('Translate to English', ['language']),
    template('Quick summary'),
    template('翻译成中文'),
  ];

  it('lists all for an empty word, in the library order', () => {
    expect(matchTemplates(library, '').map((entry) => entry.title)).toEqual(
      library.map((entry) => entry.title),
    );
  });

  it('ranks a title prefix, then a word prefix, then a substring, then a tag', () => {
    expect(matchTemplates(library, 'SUM').map((entry) => entry.title)).toEqual([
      'Summarise a file',
      'Quick summary',
    ]);
    expect(matchTemplates(library, 'lang').map((entry) => entry.title)).toEqual([
      'Translate to English',
    ]);
    expect(matchTemplates(library, '翻译').map((entry) => entry.title)).toEqual(['翻译成中文']);
    expect(matchTemplates(library, 'zzz')).toEqual([]);
  });
});

describe('fileKind', () => {
  it('reads the type first, then the extension', () => {
    expect(fileKind('a.png', 'image/png')).toBe('image');
    expect(fileKind('visits.csv', 'text/csv')).toBe('sheet');
    expect(fileKind('notes.py', '')).toBe('code');
    expect(fileKind('README', 'text/plain')).toBe('text');
    expect(fileKind('backup.tar.gz', 'application/gzip')).toBe('archive');
    expect(fileKind('blob', 'application/octet-stream')).toBe('other');
    expect(hasThumbnail('image/png')).toBe(true);
    expect(hasThumbnail('image/svg+xml')).toBe(false);
  });
});
