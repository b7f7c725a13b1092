/**
 * What the model (and the user, in the tool card) reads after a restart: a worker restart keeps
 * the files; a container that died and was restored says what happened to them instead.
 */
import { describe, expect, it } from 'vitest';
import { describeResult } from '../../../src/main/tools/python-execute';

const base = {
  status: 'error' as const,
  stdout: '',
  stderr: '',
  error: 'The sandbox container stopped while this code was running.',
  duration_ms: 4057,
  outputs: [],
};

describe('describeResult after a restart', () => {
  it('a worker restart: variables are gone, files remain', () => {
    expect(describeResult({ ...base, worker_restarted: true }, [], 0)).toBe(
      'status: error (4057 ms)\nerror:\nThe sandbox container stopped while this code was running.\nnote: the Python process was restarted; variables and imports from earlier calls are gone, files in /workspace remain.',
    );
  });

  it('a restored container: the notice about the files replaces "files remain"', () => {
    const notice =
      '/workspace was restored from its last save of 2026-12-02T14:52:17.920Z; files changed after it are lost.';
    expect(
      describeResult({ ...base, worker_restarted: true, workspace_notice: notice }, [], 0),
    ).toBe(
      `status: error (4057 ms)\nerror:\nThe sandbox container stopped while this code was running.\nnote: ${notice}`,
    );
  });
});
