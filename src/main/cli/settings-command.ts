/** `aivory settings [show] | set KEY.FIELD VALUE`: the typed settings shared with the app. */
import { maskSecret } from '../policy/secret-mask';
import type { AppContext } from '../composition/app-context';
import { isSettingsKey, SETTINGS_KEYS } from '../services/settings-service';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

/** Settings whose key lives in the SecretStore; the setting itself only holds a reference. */
const SECRET_SETTINGS = {
  'search.apiKey': 'search',
  'sandbox.apiKey': 'sandbox',
  'images.apiKey': 'images',
} as const;

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
  if (!Object.hasOwn(context.settings.get(key), field) || field === 'apiKeyRef') {
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
  const key = Object.entries(SECRET_SETTINGS).find(([name]) => name === path)?.[1];
  if (!key) {
    throw usageError(
      `Usage: aivory settings set-key|clear-key ${Object.keys(SECRET_SETTINGS).join('|')} [VALUE]`,
    );
  }
  const ref = `settings:${key}:api-key`;
  if (action === 'clear-key') {
    await context.secrets.delete(ref);
    context.settings.update(key, { apiKeyRef: null });
    io.stdout(`${path} cleared\n`);
    return EXIT_OK;
  }
  if (value.trim() === '') throw usageError(`Give the key: aivory settings set-key ${path} VALUE`);
  await context.secrets.set(ref, value.trim());
  context.settings.update(key, { apiKeyRef: ref });
  io.stdout(`${path} saved (${maskSecret(value.trim())})\n`);
  return EXIT_OK;
}
