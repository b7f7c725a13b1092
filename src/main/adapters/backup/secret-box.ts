/**
 * The secrets of a backup, sealed with a passphrase the user chose: scrypt (N = 2^17, r = 8,
 * p = 1: ~0.3 s and 128 MiB on these machines, OWASP's floor for scrypt) derives an AES-256-GCM
 * key from the passphrase and a random salt; GCM's tag makes a wrong passphrase and a changed byte
 * the same refusal. The OS keychain cannot be used: a backup must open on another computer.
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { z } from 'zod';
import { AivoryError } from '../../../shared/errors';

interface ScryptCost {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

const SCRYPT: ScryptCost = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };
const KEY_BYTES = 32;

const sealedSchema = z.object({
  kdf: z.literal('scrypt'),
  N: z.number().int(),
  r: z.number().int(),
  p: z.number().int(),
  salt: z.string(),
  iv: z.string(),
  tag: z.string(),
  data: z.string(),
});

function deriveKey(passphrase: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFC'), salt, KEY_BYTES, cost, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

/** Seals `secrets` (ref → value) with `passphrase`; the result is the text of `secrets.enc`. */
export async function sealSecrets(
  secrets: Record<string, string>,
  passphrase: string,
): Promise<string> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = await deriveKey(passphrase, salt, SCRYPT);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return JSON.stringify({
    kdf: 'scrypt',
    N: SCRYPT.N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  });
}

/**
 * Opens `sealed` with `passphrase`. A wrong passphrase or a changed byte is an `invalid-input`
 * error that says so; nothing of the content is ever in a message.
 */
export async function openSecrets(
  sealed: string,
  passphrase: string,
): Promise<Record<string, string>> {
  let parsed: z.infer<typeof sealedSchema>;
  try {
    parsed = sealedSchema.parse(JSON.parse(sealed));
  } catch {
    throw new AivoryError('invalid-input', "The backup's secrets are damaged.");
  }
  // Bounded by what this build writes: a hostile file cannot ask for gigabytes of scrypt memory.
  if (parsed.N > SCRYPT.N || parsed.r > SCRYPT.r || parsed.p > SCRYPT.p) {
    throw new AivoryError('invalid-input', "The backup's secrets use an unknown key setting.");
  }
  const key = await deriveKey(passphrase, Buffer.from(parsed.salt, 'base64'), {
    ...SCRYPT,
    N: parsed.N,
    r: parsed.r,
    p: parsed.p,
  });
  let text: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(parsed.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(parsed.tag, 'base64'));
    text = Buffer.concat([
      decipher.update(Buffer.from(parsed.data, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new AivoryError(
      'invalid-input',
      "The passphrase does not open this backup's secrets (or they were changed). Check the passphrase and try again.",
    );
  }
  const values: unknown = JSON.parse(text);
  const checked = z.record(z.string(), z.string()).safeParse(values);
  if (!checked.success) throw new AivoryError('invalid-input', "The backup's secrets are damaged.");
  return checked.data;
}
