/**
 * The rules a skill must meet, with messages that say what to change. Limits keep the skills
 * index small enough for every system prompt and a skill small enough to load into one turn.
 */
import { redactText } from '../policy/redact';
import { AivoryError } from '../../shared/errors';
import type { SkillAssetInput } from '../core/ports';
import { formatBytes } from '../../shared/byte-size';

/** Names are what `use_skill` is called with: short, lowercase, no spaces. */
export const SKILL_NAME_PATTERN = /^[a-z0-9-]{1,64}$/;
/** One sentence: the index line of every skill goes into every system prompt. */
export const MAX_WHEN_TO_USE_CHARS = 300;
/** The full how-to is returned to the model in one tool result. */
export const MAX_INSTRUCTIONS_BYTES = 200 * 1024;
/** Assets are stored in the database; larger files belong in the conversation. */
export const MAX_ASSET_BYTES = 10 * 1024 * 1024;
/** use_skill lists every asset; a skill is a how-to, not a file share. */
export const MAX_ASSETS_PER_SKILL = 20;
/** An emoji or a couple of letters (an emoji with modifiers may take a dozen code units). */
export const MAX_ICON_CHARS = 16;
const MAX_ASSET_NAME_CHARS = 255;
const MIME_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function invalid(message: string): AivoryError {
  return new AivoryError('invalid-input', message);
}

/** Throws unless `name` is 1–64 lowercase letters, digits or "-". */
export function checkSkillName(name: string): void {
  if (!SKILL_NAME_PATTERN.test(name)) {
    throw invalid(
      `Skill name "${name}" is not valid: use 1–64 lowercase letters, digits and "-" ` +
        '(for example "weekly-report").',
    );
  }
}

/** Returns the trimmed text, or throws unless it is one non-empty line of at most 300 characters. */
export function checkWhenToUse(whenToUse: string): string {
  const text = whenToUse.trim();
  if (text === '')
    throw invalid('"When to use" is empty: write one sentence saying when to load the skill.');
  if (/[\r\n]/.test(text)) throw invalid('"When to use" must be one sentence on one line.');
  if (text.length > MAX_WHEN_TO_USE_CHARS) {
    throw invalid(
      `"When to use" is ${text.length} characters; keep it to one sentence of at most ` +
        `${MAX_WHEN_TO_USE_CHARS} (it is injected into every system prompt).`,
    );
  }
  return text;
}

/** Throws unless the instructions are non-blank and at most 200 KB of UTF-8. */
export function checkInstructions(instructions: string): void {
  if (instructions.trim() === '') throw invalid('The skill instructions are empty.');
  const bytes = Buffer.byteLength(instructions, 'utf8');
  if (bytes > MAX_INSTRUCTIONS_BYTES) {
    throw invalid(
      `The skill instructions are ${overLimit(bytes, MAX_INSTRUCTIONS_BYTES)}. Move long ` +
        'material into assets.',
    );
  }
}

/** Returns the trimmed icon, or throws when it is long or holds control characters. */
export function checkIcon(icon: string): string {
  const text = icon.trim();
  if (text.length > MAX_ICON_CHARS || hasControlCharacter(text)) {
    throw invalid(`The icon must be a short text or emoji (at most ${MAX_ICON_CHARS} characters).`);
  }
  return text;
}

/** Throws unless the asset has a plain file name, a MIME type and at most 10 MB of data. */
export function checkAsset(asset: SkillAssetInput): void {
  const { name } = asset;
  if (
    name.trim() === '' ||
    name === '.' ||
    name === '..' ||
    name.length > MAX_ASSET_NAME_CHARS ||
    /[/\\]/.test(name) ||
    hasControlCharacter(name)
  ) {
    throw invalid(
      `Asset name "${name}" is not valid: use a plain file name (no folders, at most ` +
        `${MAX_ASSET_NAME_CHARS} characters).`,
    );
  }
  if (!MIME_PATTERN.test(asset.mime)) {
    throw invalid(`Asset "${name}" has an invalid MIME type "${asset.mime}".`);
  }
  if (asset.data.byteLength > MAX_ASSET_BYTES) {
    throw invalid(
      `Asset "${name}" is ${overLimit(asset.data.byteLength, MAX_ASSET_BYTES)} per asset.`,
    );
  }
}

/** Checks each asset, that names are unique, and that the skill keeps at most 20 assets. */
export function checkAssets(assets: readonly SkillAssetInput[], existingCount = 0): void {
  const names = new Set<string>();
  for (const asset of assets) {
    checkAsset(asset);
    if (names.has(asset.name)) throw invalid(`Asset "${asset.name}" is given twice.`);
    names.add(asset.name);
  }
  if (existingCount + assets.length > MAX_ASSETS_PER_SKILL) {
    throw invalid(`A skill may have at most ${MAX_ASSETS_PER_SKILL} assets.`);
  }
}

/**
 * A warning when the text looks like it holds a credential (API key, bearer token, password=…).
 * Skills are shown to models; the seed says never to put long-lived secrets in them.
 */
export function secretWarning(text: string): string | null {
  if (redactText(text) === text) return null;
  return (
    'The skill text looks like it contains a secret (an API key, token or password). Skills are ' +
    'shown to models: remove long-lived keys, passwords, cookies and one-time login links.'
  );
}

/**
 * "`size`; the limit is `limit`", rounded for reading, in exact bytes when rounding would make the
 * two look equal ("10 MiB; the limit is 10 MiB").
 */
export function overLimit(size: number, limit: number): string {
  const [shownSize, shownLimit] =
    formatBytes(size) === formatBytes(limit)
      ? [`${size} bytes`, `${limit} bytes`]
      : [formatBytes(size), formatBytes(limit)];
  return `${shownSize}; the limit is ${shownLimit}`;
}
