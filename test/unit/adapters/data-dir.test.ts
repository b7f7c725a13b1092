import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDataDir, resolveDataDir } from '../../../src/main/adapters/data-dir';

describe('resolveDataDir', () => {
  it('prefers AIVORY_HOME on every platform', () => {
    expect(resolveDataDir({ AIVORY_HOME: '/srv/aivory' }, 'linux', '/home/ada')).toBe(
      '/srv/aivory',
    );
    expect(resolveDataDir({ AIVORY_HOME: '/srv/aivory' }, 'darwin', '/Users/ada')).toBe(
      '/srv/aivory',
    );
    expect(
      resolveDataDir(
        { AIVORY_HOME: 'D:\\aivory', APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' },
        'win32',
        'C:\\Users\\ada',
      ),
    ).toBe('D:\\aivory');
  });

  it('makes a relative AIVORY_HOME absolute and ignores an empty one', () => {
    expect(resolveDataDir({ AIVORY_HOME: 'data' }, 'linux', '/home/ada')).toBe(
      join(process.cwd(), 'data'),
    );
    expect(resolveDataDir({ AIVORY_HOME: '  ' }, 'linux', '/home/ada')).toBe(
      '/home/ada/.config/Aivory',
    );
  });

  it('uses Electron userData defaults on Linux', () => {
    expect(resolveDataDir({}, 'linux', '/home/ada')).toBe('/home/ada/.config/Aivory');
    expect(resolveDataDir({ XDG_CONFIG_HOME: '/xdg/config' }, 'linux', '/home/ada')).toBe(
      '/xdg/config/Aivory',
    );
    expect(resolveDataDir({ XDG_CONFIG_HOME: 'relative' }, 'linux', '/home/ada')).toBe(
      '/home/ada/.config/Aivory',
    );
    expect(resolveDataDir({}, 'freebsd', '/home/ada')).toBe('/home/ada/.config/Aivory');
  });

  it('uses Electron userData defaults on macOS', () => {
    expect(resolveDataDir({ XDG_CONFIG_HOME: '/ignored' }, 'darwin', '/Users/ada')).toBe(
      '/Users/ada/Library/Application Support/Aivory',
    );
  });

  it('uses Electron userData defaults on Windows', () => {
    expect(
      resolveDataDir({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ada'),
    ).toBe('C:\\Users\\ada\\AppData\\Roaming\\Aivory');
    expect(resolveDataDir({}, 'win32', 'C:\\Users\\ada')).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\Aivory',
    );
  });

  it('defaults to the real environment', () => {
    const expected = process.env.AIVORY_HOME
      ? process.env.AIVORY_HOME
      : expect.stringMatching(/Aivory$/);
    expect(resolveDataDir()).toEqual(expected);
  });
});

describe('ensureDataDir', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'aivory-data-dir-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('creates missing parents and is idempotent', () => {
    const target = join(directory, 'a', 'b', 'Aivory');
    ensureDataDir(target);
    ensureDataDir(target);
    expect(statSync(target).isDirectory()).toBe(true);
  });

  it.runIf(process.platform !== 'win32')('creates the directory with mode 0700', () => {
    const target = join(directory, 'Aivory');
    ensureDataDir(target);
    expect(statSync(target).mode & 0o777).toBe(0o700);
  });

  it('a file in the way is a configuration error that names the folder, not an internal one', () => {
    const file = join(directory, 'taken');
    writeFileSync(file, 'x');
    for (const target of [file, join(file, 'sub')]) {
      expect(() => ensureDataDir(target)).toThrow(
        expect.objectContaining({
          code: 'config',
          message: `Cannot use the data directory ${target} (a file is in the way). Set AIVORY_HOME to a folder you can write.`,
        }),
      );
    }
  });
});
