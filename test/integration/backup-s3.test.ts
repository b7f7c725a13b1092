/**
 * Backups to S3-compatible storage (issue 42, item 3) with the real CLI against a local server
 * that verifies every request's Signature V4 (sandbox/test/support/sigv4-s3-server.ts): a
 * backup is uploaded and read back, verified and restored from the bucket into an empty folder;
 * a bucket that refuses the upload leaves no object and no local copy; missing settings are
 * named.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { startSigV4S3Server, type SigV4S3Server } from '../../sandbox/test/support/sigv4-s3-server';
import { cliEnv, makeDataDir, runCli, withoutBuildNotes } from '../support/run-cli';

const CREDENTIALS = { accessKeyId: 'AKIDBACKUPTEST', secretAccessKey: 'backup-secret-key-1234' };

function seed(): string {
  const home = makeDataDir();
  const store = openStore(join(home, 'aivory.db'));
  store.conversations.createConversation({ id: 'c1', title: 'Kept in a bucket', modelId: null });
  store.close();
  mkdirSync(join(home, 'uploads', 'c1'), { recursive: true });
  writeFileSync(join(home, 'uploads', 'c1', 'notes.txt'), 'remember this');
  return home;
}

describe('aivory backup to S3', () => {
  let server: SigV4S3Server;
  let home: string;
  let s3Env: Record<string, string>;

  beforeAll(async () => {
    server = await startSigV4S3Server({ ...CREDENTIALS, region: 'eu-test-1', buckets: ['vault'] });
    home = seed();
    s3Env = {
      AIVORY_BACKUP_S3_ENDPOINT: server.endpoint,
      AIVORY_BACKUP_S3_REGION: 'eu-test-1',
      AIVORY_BACKUP_S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AIVORY_BACKUP_S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    };
  });

  afterAll(async () => {
    await server.close();
  });

  it('uploads, reads back, verifies and restores from the bucket', async () => {
    const created = await runCli(
      ['backup', 'create', '--to', 's3://vault/aivory/laptop', '--no-secrets'],
      cliEnv(home, s3Env),
    );
    expect(withoutBuildNotes(created.stderr)).not.toContain('aivory:');
    expect(created.code).toBe(0);
    const location = /Backed up and verified: (s3:\/\/\S+)/.exec(created.stdout)?.[1] ?? '';
    expect(location).toMatch(/^s3:\/\/vault\/aivory\/laptop\/aivory-backup-\d{8}-\d{6}\.tar$/);
    const keys = [...(server.buckets.get('vault')?.keys() ?? [])];
    expect(keys).toEqual([location.slice('s3://vault/'.length)]);
    // The copy written on this disk first is gone once the bucket holds it.
    expect(readdirSync(join(home, 'backups', '.outgoing'))).toEqual([]);
    // Read back from the bucket after the upload (a GET of that key).
    expect(server.requests.some((request) => request.method === 'GET')).toBe(true);

    const verified = await runCli(['backup', 'verify', location], cliEnv(home, s3Env));
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('is a good backup');

    const newHome = join(makeDataDir(), 'elsewhere');
    const restored = await runCli(['backup', 'restore', location], cliEnv(newHome, s3Env));
    expect(withoutBuildNotes(restored.stderr)).not.toContain('aivory:');
    expect(restored.code).toBe(0);
    const listed = await runCli(['conversations', 'list'], cliEnv(newHome));
    expect(listed.stdout).toContain('Kept in a bucket');
    expect(readdirSync(newHome).filter((name) => name.startsWith('.backup-download'))).toEqual([]);
  });

  it('keeps nothing when the bucket refuses the upload', async () => {
    server.failWith({
      when: (request) => request.method === 'PUT',
      status: 403,
      code: 'AccessDenied',
      times: 10,
    });
    const before = server.buckets.get('vault')?.size ?? 0;
    const result = await runCli(
      ['backup', 'create', '--to', 's3://vault/refused', '--no-secrets'],
      cliEnv(home, s3Env),
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `S3 storage at ${new URL(server.endpoint).origin}/vault/refused`,
    );
    expect(result.stderr).toContain('AccessDenied');
    expect(result.stderr).not.toContain(CREDENTIALS.secretAccessKey);
    expect(server.buckets.get('vault')?.size ?? 0).toBe(before);
    expect(readdirSync(join(home, 'backups', '.outgoing'))).toEqual([]);
  });

  it('names the settings a bucket needs', async () => {
    const result = await runCli(
      ['backup', 'create', '--to', 's3://vault/x', '--no-secrets'],
      cliEnv(home),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('need AIVORY_BACKUP_S3_ENDPOINT');
    // Refused before anything was written.
    const outgoing = join(home, 'backups', '.outgoing');
    expect(existsSync(outgoing) ? readdirSync(outgoing) : []).toEqual([]);
  });
});
