/** A tar's end in words (issue 37, finding 10: a damaged save said "tar exited with null"). */
import { describe, expect, it } from 'vitest';
import { describeRestoreFailure, describeTarExit } from '../src/tar-exit';

describe('describeTarExit', () => {
  it('says what no exit status means', () => {
    expect(describeTarExit(null)).toBe(
      'tar ended without an exit status (its container stopped or the connection to it closed)',
    );
  });

  it('names the signal that ended tar, and what SIGKILL usually is', () => {
    expect(describeTarExit(137)).toBe(
      'tar was killed by signal 9: the container ran out of memory or was stopped',
    );
    expect(describeTarExit(143)).toBe('tar was killed by signal 15');
  });

  it('gives a plain failure its code', () => {
    expect(describeTarExit(2)).toBe('tar failed with exit code 2');
  });
});

describe('describeRestoreFailure', () => {
  it('leads with the damaged save when tar said nothing', () => {
    expect(describeRestoreFailure(null, '', 'Decompression failed')).toBe(
      'the save could not be read (Decompression failed); tar ended without an exit status (its container stopped or the connection to it closed)',
    );
  });

  it("keeps tar's own words first, the reading error after", () => {
    expect(describeRestoreFailure(2, 'tar: Unexpected EOF in archive\n', 'write EPIPE')).toBe(
      'tar: Unexpected EOF in archive (reading the save: write EPIPE)',
    );
    expect(describeRestoreFailure(2, 'tar: Unexpected EOF in archive\n', null)).toBe(
      'tar: Unexpected EOF in archive',
    );
  });
});
