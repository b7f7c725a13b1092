/**
 * Reads the product seed documents. The copies in docs/seeds/ are the project's own; when the
 * shared originals sit beside the checkout (../shared/seeds) tests also check the copies match.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export const TOOL_PROTOCOL_SEED = 'docs/seeds/000_67077f376ad9eee3.txt';
export const SANDBOX_SEED = 'docs/seeds/003_8a3ebebd3ac6b1a2.txt';

export function readSeed(relativePath: string): string {
  return readFileSync(`${root}${relativePath}`, 'utf8');
}

/** The shared original of a seed copy, or null when ../shared is not beside the checkout. */
export function readSharedSeed(relativePath: string): string | null {
  const shared = `${root}../shared/seeds/${relativePath.split('/').at(-1)}`;
  return existsSync(shared) ? readFileSync(shared, 'utf8') : null;
}

/** The text between two markers of the seed (exclusive), trimmed of surrounding blank lines. */
export function seedBetween(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  if (from === -1) throw new Error(`seed marker not found: ${start}`);
  const to = text.indexOf(end, from + start.length);
  if (to === -1) throw new Error(`seed marker not found: ${end}`);
  return text.slice(from + start.length, to).replace(/^\n+|\n+$/g, '');
}

/** The description and schema JSON the seed gives for a built-in tool (its name on its own line). */
export function seedToolDefinition(
  text: string,
  name: string,
): { description: string; schema: string } {
  const lines = text.split('\n');
  const index = lines.indexOf(name);
  if (index === -1) throw new Error(`tool ${name} not in seed`);
  const rest = lines.slice(index + 1).filter((line) => line.trim() !== '');
  const description = rest[0];
  const schemaLine = rest[1];
  if (!description || !schemaLine?.startsWith('Input schema: '))
    throw new Error(`malformed seed entry for ${name}`);
  return { description, schema: schemaLine.slice('Input schema: '.length) };
}
