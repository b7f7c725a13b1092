/**
 * Command-line details of `aivory mcp` and `aivory chat`: option values that start with "-",
 * service lists whose names hold spaces, and names quoted for a POSIX shell in suggested commands.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { joinOptionValues, shellWord } from '../../../src/main/cli/cli-args';
import { parseServiceList, parseToolList } from '../../../src/main/cli/chat-command';

const OPTIONS = {
  name: { type: 'string' },
  arg: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  accept: { type: 'boolean' },
} as const;

describe('joinOptionValues', () => {
  it('gives a value-taking option the next token, even one starting with "-"', () => {
    const argv = ['add', '--arg', '-y', '--arg', '--import', '--env', '-X=1', '--accept', 'x'];
    expect(() => parseArgs({ args: argv, options: OPTIONS, allowPositionals: true })).toThrow(
      /ambiguous/,
    );
    const { values, positionals } = parseArgs({
      args: joinOptionValues(argv, OPTIONS),
      options: OPTIONS,
      allowPositionals: true,
    });
    expect(values).toEqual({ arg: ['-y', '--import'], env: ['-X=1'], accept: true });
    expect(positionals).toEqual(['add', 'x']);
  });

  it('leaves --opt=value, boolean flags, a trailing option and everything after -- alone', () => {
    expect(
      joinOptionValues(['--name=a', '--accept', '--', '--arg', '-y', '--name'], OPTIONS),
    ).toEqual(['--name=a', '--accept', '--', '--arg', '-y', '--name']);
    expect(joinOptionValues(['x', '--name'], OPTIONS)).toEqual(['x', '--name']);
    expect(joinOptionValues(['--unknown', '-y'], OPTIONS)).toEqual(['--unknown', '-y']);
  });
});

describe('service and tool lists', () => {
  it('--mcp splits on commas only and trims each name; "none" means no services', () => {
    expect(parseServiceList('Notes Ω/2, files ,')).toEqual(['Notes Ω/2', 'files']);
    expect(parseServiceList(' none ')).toEqual([]);
    expect(parseServiceList(undefined)).toBeUndefined();
  });

  it('--tools still takes commas or spaces (tool names have none)', () => {
    expect(parseToolList('web_fetch, python_execute save_memory')).toEqual([
      'web_fetch',
      'python_execute',
      'save_memory',
    ]);
    expect(parseToolList('none')).toEqual([]);
  });
});

describe('shellWord', () => {
  it('leaves plain names and quotes the rest so a POSIX shell reads them back', () => {
    expect(shellWord('files')).toBe('files');
    expect(shellWord('my-notes_2.v1')).toBe('my-notes_2.v1');
    for (const name of ["Notes Ω/2 it's", 'a$b', '*', '', 'x;rm -rf ~']) {
      const word = shellWord(name);
      expect(word).not.toBe(name);
      expect(execFileSync('/bin/sh', ['-c', `printf %s ${word}`], { encoding: 'utf8' })).toBe(name);
    }
  });
});
