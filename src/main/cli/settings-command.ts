/** `aivory settings [show] | set KEY.FIELD VALUE`: the typed settings shared with the app. */
import type { AppContext } from '../services/app-context';
import { isSettingsKey, SETTINGS_SCHEMAS } from '../services/settings-service';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

export function settingsCommand(argv: string[], context: AppContext, io: CliIo): number {
  const [action = 'show', path, ...rest] = argv;
  if (action === 'show') {
    const all = Object.fromEntries(
      Object.keys(SETTINGS_SCHEMAS)
        .filter(isSettingsKey)
        .map((key) => [key, context.settings.get(key)]),
    );
    io.stdout(`${JSON.stringify(all, null, 2)}\n`);
    return EXIT_OK;
  }
  if (action !== 'set' || !path || rest.length === 0) {
    throw usageError('Usage: aivory settings [show] | aivory settings set KEY.FIELD VALUE');
  }
  const [key, field, ...deeper] = path.split('.');
  if (!key || !isSettingsKey(key) || !field || deeper.length > 0) {
    const keys = Object.keys(SETTINGS_SCHEMAS).join(', ');
    throw usageError(`Unknown setting "${path}". Settings are KEY.FIELD with KEY one of: ${keys}.`);
  }
  if (!Object.hasOwn(context.settings.get(key), field) || field === 'apiKeyRef') {
    throw usageError(`Unknown setting "${path}". Run aivory settings show for the fields.`);
  }
  const updated = context.settings.update(key, { [field]: parseValue(rest.join(' ')) });
  io.stdout(`${JSON.stringify({ [key]: updated }, null, 2)}\n`);
  return EXIT_OK;
}

/** Numbers, booleans and null as JSON; anything else as the literal string. */
function parseValue(text: string): unknown {
  if (/^(-?\d+(\.\d+)?|true|false|null)$/.test(text)) return JSON.parse(text) as unknown;
  return text;
}
