/**
 * The OAuth fields of a new MCP service as typed: a pre-registered client id, its secret or its
 * private key (the key's type picks the JWS algorithm; a bad key is a clear error that never
 * echoes the key), the grant, and the combinations that make no sense.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseServiceInput } from '../../../src/main/services/mcp/mcp-service-input';
import type { McpServiceInput } from '../../../src/main/services/mcp/mcp-service-input';

const BASE: McpServiceInput = {
  name: 'svc',
  description: 'A service.',
  url: 'https://mcp.example.com/mcp',
};

function parse(extra: Partial<McpServiceInput>) {
  return parseServiceInput({ ...BASE, ...extra }, false);
}

function pem(type: 'rsa' | 'ec' | 'ed25519', options: Record<string, unknown> = {}): string {
  const { privateKey } = generateKeyPairSync(
    type as 'rsa',
    {
      ...(type === 'rsa' ? { modulusLength: 2048 } : {}),
      ...options,
    } as never,
  );
  return (privateKey as unknown as KeyObject).export({ type: 'pkcs8', format: 'pem' }).toString();
}

describe('parseServiceInput: OAuth client', () => {
  it('keeps the defaults (null) without a client id', () => {
    expect(parse({}).oauth).toBeNull();
    expect(parse({ oauthGrant: 'authorization_code' }).oauth).toBeNull();
    expect(parse({ clientId: '   ' }).oauth).toBeNull();
  });

  it('keeps a pre-registered client id and secret as typed', () => {
    expect(parse({ clientId: ' app-1 ', clientSecret: 's3cret' }).oauth).toEqual({
      grant: 'authorization_code',
      clientId: 'app-1',
      clientSecret: 's3cret',
      clientKey: null,
    });
  });

  it('picks RS256 for an RSA key and ES256/384/512 for an EC key by its curve', () => {
    const rsa = parse({ clientId: 'a', clientKey: pem('rsa') }).oauth?.clientKey;
    expect(rsa?.algorithm).toBe('RS256');
    expect(rsa?.pem).toContain('-----BEGIN PRIVATE KEY-----');
    for (const [curve, algorithm] of [
      ['P-256', 'ES256'],
      ['P-384', 'ES384'],
      ['P-521', 'ES512'],
    ] as const) {
      const key = parse({ clientId: 'a', clientKey: pem('ec', { namedCurve: curve }) }).oauth
        ?.clientKey;
      expect(key?.algorithm).toBe(algorithm);
    }
  });

  it('re-encodes a PKCS#1 RSA key and a SEC1 EC key as PKCS#8', () => {
    const { privateKey: rsa } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pkcs1 = rsa.export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(pkcs1).toContain('BEGIN RSA PRIVATE KEY');
    const fromPkcs1 = parse({ clientId: 'a', clientKey: pkcs1 }).oauth?.clientKey;
    expect(fromPkcs1?.algorithm).toBe('RS256');
    expect(fromPkcs1?.pem).toContain('-----BEGIN PRIVATE KEY-----');
    const { privateKey: ec } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const sec1 = ec.export({ type: 'sec1', format: 'pem' }).toString();
    const fromSec1 = parse({ clientId: 'a', clientKey: sec1 }).oauth?.clientKey;
    expect(fromSec1?.algorithm).toBe('ES256');
    expect(fromSec1?.pem).toContain('-----BEGIN PRIVATE KEY-----');
  });

  it('refuses what is not a PEM private key, without echoing it', () => {
    const garbage = 'not-a-key-SENSITIVE-TEXT-12345';
    expect(() => parse({ clientId: 'a', clientKey: garbage })).toThrow(
      'The OAuth client key is not a PEM private key.',
    );
    try {
      parse({ clientId: 'a', clientKey: garbage });
    } catch (error) {
      expect(String(error)).not.toContain('SENSITIVE');
    }
    // A public key is not a private key.
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() =>
      parse({
        clientId: 'a',
        clientKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      }),
    ).toThrow('not a PEM private key');
    // A damaged PEM body.
    const lines = pem('rsa').trim().split('\n');
    const broken = [...lines.slice(0, 3), ...lines.slice(-1)].join('\n');
    expect(() => parse({ clientId: 'a', clientKey: broken })).toThrow('not a PEM private key');
  });

  it('refuses key types and curves with no JWS algorithm here', () => {
    expect(() => parse({ clientId: 'a', clientKey: pem('ed25519') })).toThrow(
      'must be an RSA key or an EC key on P-256, P-384 or P-521',
    );
    expect(() =>
      parse({ clientId: 'a', clientKey: pem('ec', { namedCurve: 'secp256k1' }) }),
    ).toThrow('must be an RSA key or an EC key');
  });

  it('refuses combinations that make no sense', () => {
    const key = pem('ec', { namedCurve: 'P-256' });
    expect(() => parse({ clientId: 'a', clientSecret: 's', clientKey: key })).toThrow(
      'Give an OAuth client secret or a private key, not both.',
    );
    expect(() => parse({ clientKey: key })).toThrow('needs its client id');
    expect(() => parse({ clientSecret: 's' })).toThrow('needs its client id');
    expect(() => parse({ clientId: 'a', oauthGrant: 'client_credentials' })).toThrow(
      'The client credentials grant needs a registered client',
    );
    expect(() => parse({ clientId: 'a\nb' })).toThrow('must be one line');
    expect(() => parse({ clientId: 'a', clientSecret: 'x'.repeat(2001) })).toThrow(
      'must be one line',
    );
    expect(() =>
      parseServiceInput({ ...BASE, url: undefined, command: 'srv', clientId: 'a' }, true),
    ).toThrow('OAuth settings apply to HTTP services only.');
  });

  it('accepts client credentials with a secret or a key', () => {
    expect(
      parse({ clientId: 'a', clientSecret: 's', oauthGrant: 'client_credentials' }).oauth,
    ).toMatchObject({ grant: 'client_credentials', clientId: 'a', clientSecret: 's' });
    expect(
      parse({ clientId: 'a', clientKey: pem('rsa'), oauthGrant: 'client_credentials' }).oauth
        ?.clientKey?.algorithm,
    ).toBe('RS256');
  });
});
