/** The SANDBOX_ARCHIVE_S3_* variables and the archive store the sidecar picks from them. */
import { describe, expect, it } from 'vitest';
import { LocalArchiveStore } from '../src/archive-store';
import { ConfigError, loadSandboxConfig } from '../src/config';
import { S3ArchiveStore } from '../src/s3-archive-store';
import { archiveStoreFor } from '../src/start-sidecar';

const KEY = 'a-perfectly-fine-sandbox-key';
const SECRET = 'super-secret-access-key/with+chars';
const FULL = {
  SANDBOX_API_KEY: KEY,
  HOME: '/home/tester',
  SANDBOX_ARCHIVE_S3_ENDPOINT: 'http://127.0.0.1:9000/',
  SANDBOX_ARCHIVE_S3_BUCKET: 'archives',
  SANDBOX_ARCHIVE_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  SANDBOX_ARCHIVE_S3_SECRET_ACCESS_KEY: SECRET,
};

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadSandboxConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      expect(error.message).not.toContain(SECRET);
      return error.problems;
    }
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('SANDBOX_ARCHIVE_S3_*', () => {
  it('leaves s3 unset by default (local archives)', () => {
    const config = loadSandboxConfig({ SANDBOX_API_KEY: KEY, HOME: '/home/tester' });
    expect(config.s3).toBeUndefined();
    expect('s3' in config).toBe(false);
    expect(archiveStoreFor(config)).toBeInstanceOf(LocalArchiveStore);
  });

  it('reads the bucket settings with their defaults', () => {
    const config = loadSandboxConfig(FULL);
    expect(config.s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'archives',
      region: 'us-east-1',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: SECRET,
      forcePathStyle: true,
      prefix: 'aivory-sandbox',
    });
    expect(archiveStoreFor(config)).toBeInstanceOf(S3ArchiveStore);
  });

  it('reads a session token and the URL style', () => {
    const token = 'FwoGZXIvYXdzEXAMPLETOKEN/with+chars==';
    const config = loadSandboxConfig({
      ...FULL,
      SANDBOX_ARCHIVE_S3_SESSION_TOKEN: token,
      SANDBOX_ARCHIVE_S3_FORCE_PATH_STYLE: '0',
      // Not read: only SANDBOX_ARCHIVE_S3_SESSION_TOKEN pairs with these keys.
      AWS_SESSION_TOKEN: 'ambient-token-from-elsewhere',
    });
    expect(config.s3).toMatchObject({ sessionToken: token, forcePathStyle: false });
    expect(
      loadSandboxConfig({ ...FULL, AWS_SESSION_TOKEN: 'ambient-token-from-elsewhere' }).s3,
    ).not.toHaveProperty('sessionToken');
    expect(
      loadSandboxConfig({ ...FULL, SANDBOX_ARCHIVE_S3_FORCE_PATH_STYLE: 'true' }).s3,
    ).toMatchObject({ forcePathStyle: true });

    const problems = problemsOf({
      ...FULL,
      SANDBOX_ARCHIVE_S3_SESSION_TOKEN: `${token} tail`,
      SANDBOX_ARCHIVE_S3_FORCE_PATH_STYLE: 'maybe',
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^SANDBOX_ARCHIVE_S3_SESSION_TOKEN must contain only visible/);
    expect(problems[1]).toMatch(/^SANDBOX_ARCHIVE_S3_FORCE_PATH_STYLE must be 1 or 0/);
    expect(problems.join('\n')).not.toContain(token);
  });

  it('reads region and prefix', () => {
    const config = loadSandboxConfig({
      ...FULL,
      SANDBOX_ARCHIVE_S3_ENDPOINT: 'https://s3.example.com/base/',
      SANDBOX_ARCHIVE_S3_REGION: 'eu-central-1',
      SANDBOX_ARCHIVE_S3_PREFIX: '/team/sandbox/',
    });
    expect(config.s3).toMatchObject({
      endpoint: 'https://s3.example.com/base',
      region: 'eu-central-1',
      prefix: 'team/sandbox',
    });
  });

  it('requires every bucket variable once one is set, naming the missing ones', () => {
    const problems = problemsOf({
      SANDBOX_API_KEY: KEY,
      SANDBOX_ARCHIVE_S3_ENDPOINT: 'http://127.0.0.1:9000',
      SANDBOX_ARCHIVE_S3_BUCKET: 'archives',
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^SANDBOX_ARCHIVE_S3_ACCESS_KEY_ID is required/);
    expect(problems[1]).toMatch(/^SANDBOX_ARCHIVE_S3_SECRET_ACCESS_KEY is required/);

    const onlyKeys = problemsOf({
      SANDBOX_API_KEY: KEY,
      SANDBOX_ARCHIVE_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      SANDBOX_ARCHIVE_S3_SECRET_ACCESS_KEY: SECRET,
    });
    expect(onlyKeys.join('\n')).toMatch(/SANDBOX_ARCHIVE_S3_ENDPOINT is required/);
    expect(onlyKeys.join('\n')).toMatch(/SANDBOX_ARCHIVE_S3_BUCKET is required/);
  });

  it('rejects bad values by name, never echoing the secret or URL credentials', () => {
    const problems = problemsOf({
      ...FULL,
      SANDBOX_ARCHIVE_S3_ENDPOINT: 'ftp://user:hunter2@example.com',
      SANDBOX_ARCHIVE_S3_BUCKET: 'bad bucket',
      SANDBOX_ARCHIVE_S3_REGION: 'us east',
      SANDBOX_ARCHIVE_S3_SECRET_ACCESS_KEY: `${SECRET} tail`,
      SANDBOX_ARCHIVE_S3_PREFIX: 'a/../b',
    });
    const text = problems.join('\n');
    for (const name of ['ENDPOINT', 'BUCKET', 'REGION', 'SECRET_ACCESS_KEY', 'PREFIX']) {
      expect(text).toContain(`SANDBOX_ARCHIVE_S3_${name}`);
    }
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain(SECRET);
    expect(problemsOf({ ...FULL, SANDBOX_ARCHIVE_S3_ENDPOINT: 'not a url' })[0]).toMatch(
      /^SANDBOX_ARCHIVE_S3_ENDPOINT must be an http/,
    );
  });

  it('ignores region and prefix alone', () => {
    const config = loadSandboxConfig({
      SANDBOX_API_KEY: KEY,
      SANDBOX_ARCHIVE_S3_REGION: 'eu-west-1',
      SANDBOX_ARCHIVE_S3_PREFIX: 'x',
    });
    expect(config.s3).toBeUndefined();
  });
});
