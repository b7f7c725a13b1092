/** `aivory settings [show] | set KEY.FIELD VALUE`: the typed settings shared with the app. */
import { maskSecret } from '../policy/secret-mask';
import type { AppContext } from '../composition/app-context';
import { BACKUP_PASSPHRASE_REF } from '../services/backup-scheduler';
import { MIN_PASSPHRASE_LENGTH } from '../../shared/ipc/limits';
import { isSettingsKey, SETTINGS_KEYS } from '../services/settings-service';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

/** Settings whose key lives in the SecretStore; the setting itself only holds a reference. */
const SECRET_SETTINGS = {
  'search.apiKey': { key: 'search', field: 'apiKeyRef', ref: 'settings:search:api-key' },
  'sandbox.apiKey': { key: 'sandbox', field: 'apiKeyRef', ref: 'settings:sandbox:api-key' },
  'images.apiKey': { key: 'images', field: 'apiKeyRef', ref: 'settings:images:api-key' },
  'backups.passphrase': { key: 'backups', field: 'passphraseRef', ref: BACKUP_PASSPHRASE_REF },
} as const;

/** The fields that hold a secret's reference: set through `set-key` only. */
const REFERENCE_FIELDS: readonly string[] = ['apiKeyRef', 'passphraseRef'];

export async function settingsCommand(
  argv: string[],
  context: AppContext,
  io: CliIo,
): Promise<number> {
  const [action = 'show', path, ...rest] = argv;
  if (action === 'set-key' || action === 'clear-key')
    return setKey(action, path, rest.join(' '), context, io);
  if (action === 'show') {
    const all = Object.fromEntries(SETTINGS_KEYS.map((key) => [key, context.settings.get(key)]));
    io.stdout(`${JSON.stringify(all, null, 2)}\n`);
    return EXIT_OK;
  }
  if (action !== 'set' || !path || rest.length === 0) {
    throw usageError('Usage: aivory settings [show] | aivory settings set KEY.FIELD VALUE');
  }
  const [key, field, ...deeper] = path.split('.');
  if (!key || !isSettingsKey(key) || !field || deeper.length > 0) {
    const keys = SETTINGS_KEYS.join(', ');
    throw usageError(`Unknown setting "${path}". Settings are KEY.FIELD with KEY one of: ${keys}.`);
  }
  if (!Object.hasOwn(context.settings.get(key), field) || REFERENCE_FIELDS.includes(field)) {
    throw usageError(`Unknown setting "${path}". Run aivory settings show for the fields.`);
  }
  const updated = context.settings.update(key, { [field]: parseValue(rest.join(' ')) });
  io.stdout(`${JSON.stringify({ [key]: updated }, null, 2)}\n`);
  return EXIT_OK;
}

/**
 * Numbers, booleans, null, objects (`{"files":"debug"}`) and arrays (`[]`) as JSON; anything
 * else as the literal string.
 */
function parseValue(text: string): unknown {
  if (/^(-?\d+(\.\d+)?|true|false|null)$/.test(text)) return JSON.parse(text) as unknown;
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw usageError(`Not valid JSON: ${text.slice(0, 200)}`);
    }
  }
  return text;
}

/** `settings set-key search.apiKey VALUE` / `clear-key`: stores the key, shows it masked. */
async function setKey(
  action: 'set-key' | 'clear-key',
  path: string | undefined,
  value: string,
  context: AppContext,
  io: CliIo,
): Promise<number> {
  const secret = Object.entries(SECRET_SETTINGS).find(([name]) => name === path)?.[1];
  if (!secret) {
    throw usageError(
      `Usage: aivory settings set-key|clear-key ${Object.keys(SECRET_SETTINGS).join('|')} [VALUE]`,
    );
  }
  const { key, field, ref } = secret;
  if (action === 'clear-key') {
    await context.secrets.delete(ref);
    context.settings.update(key, { [field]: null });
    io.stdout(`${path} cleared\n`);
    return EXIT_OK;
  }
  if (value.trim() === '') throw usageError(`Give the key: aivory settings set-key ${path} VALUE`);
  if (key === 'backups' && value.trim().length < MIN_PASSPHRASE_LENGTH) {
    throw usageError(`The passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters long.`);
  }
  await context.secrets.set(ref, value.trim());
  context.settings.update(key, { [field]: ref });
  // A passphrase is not shown even masked: its ends are part of what the user must remember.
  io.stdout(
    key === 'backups' ? `${path} saved\n` : `${path} saved (${maskSecret(value.trim())})\n`,
  );
  return EXIT_OK;
}
