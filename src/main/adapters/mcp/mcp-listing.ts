/**
 * Paged listings (tools, prompts, resources) and the checks on each listed item. A server's list
 * is untrusted: pages are bounded, cursors must not repeat, and each item is checked field by
 * field instead of with the SDK's all-or-nothing schema.
 *
 * Tools are strict: an entry without a usable name, a name listed twice, or an inputSchema that
 * is not an object refuses the whole list with a `protocol` error naming the entry. Skipping
 * would hide a tool from the user's review of what changed, and the port has no place to report
 * a skipped count. Prompts and resources are for browsing, so bad entries are skipped there and
 * long lists are cut.
 */
import { McpError } from '../../core/ports';
import type {
  McpPromptInfo,
  McpResourceInfo,
  McpResourceTemplateInfo,
  McpToolAnnotations,
  McpToolInfo,
} from '../../core/ports';
import { hasInvisibleCharacters, oneLine } from '../../../shared/untrusted-text';

type Json = Record<string, unknown>;

/** Fetches one page of a listing, given the previous page's cursor. */
export type PageFetcher = (cursor: string | undefined) => Promise<Json>;

/** Which list is paged, how far, and what happens past the cap. */
export interface PagingRule {
  key: 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
  max: number;
  /** 'refuse': more than `max` items is a `too-large` error; 'truncate': keep the first `max`. */
  overflow: 'refuse' | 'truncate';
  server: string;
}

/** Longest tool name accepted (the spec recommends 128; names are sanitised by the service). */
export const MAX_TOOL_NAME = 256;

function asObject(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : null;
}

/** Follows `nextCursor` until the last page or the cap; `normalise` returns null to skip. */
export async function collectPages<T>(
  fetchPage: PageFetcher,
  rule: PagingRule,
  normalise: (item: unknown, index: number) => T | null,
): Promise<T[]> {
  const items: T[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let index = 0;
  for (let page = 1; ; page += 1) {
    if (page > rule.max + 10) {
      throw new McpError('protocol', `${rule.server} sent too many pages of ${rule.key}`);
    }
    const answer = await fetchPage(cursor);
    const list = answer[rule.key];
    if (!Array.isArray(list)) {
      throw new McpError('protocol', `${rule.server} answered ${rule.key}/list without a list`);
    }
    for (const entry of list) {
      if (items.length >= rule.max) return overflow(items, rule);
      const item = normalise(entry, index);
      index += 1;
      if (item !== null) items.push(item);
    }
    const next = answer['nextCursor'];
    if (typeof next !== 'string' || next === '') return items;
    if (cursors.has(next)) {
      throw new McpError('protocol', `${rule.server} repeated a ${rule.key}/list page cursor`);
    }
    cursors.add(next);
    cursor = next;
  }
}

function overflow<T>(items: T[], rule: PagingRule): T[] {
  if (rule.overflow === 'truncate') return items;
  throw new McpError(
    'too-large',
    `${rule.server} lists more than ${rule.max} ${rule.key}; refused (at most ${rule.max} per service)`,
  );
}

/** Keeps the boolean hints and a string title; null when nothing usable is left. */
export function normaliseAnnotations(value: unknown): McpToolAnnotations | null {
  const raw = asObject(value);
  if (raw === null) return null;
  const annotations: McpToolAnnotations = {};
  if (typeof raw['title'] === 'string') annotations.title = raw['title'];
  for (const key of [
    'readOnlyHint',
    'destructiveHint',
    'idempotentHint',
    'openWorldHint',
  ] as const) {
    const hint = raw[key];
    if (typeof hint === 'boolean') annotations[key] = hint;
  }
  return Object.keys(annotations).length === 0 ? null : annotations;
}

/** A checker for one tools/list (it remembers names to refuse duplicates). */
export function toolNormaliser(server: string): (item: unknown, index: number) => McpToolInfo {
  const names = new Set<string>();
  return (item, index) => {
    const tool = asObject(item);
    const name = tool?.['name'];
    if (
      tool === null ||
      typeof name !== 'string' ||
      name === '' ||
      name.length > MAX_TOOL_NAME ||
      hasInvisibleCharacters(name)
    ) {
      throw new McpError(
        'protocol',
        `${server} listed a tool without a valid name (entry ${index + 1})`,
      );
    }
    const shown = oneLine(name, 80);
    if (names.has(name))
      throw new McpError('protocol', `${server} lists the tool "${shown}" twice`);
    names.add(name);
    const schema = tool['inputSchema'];
    if (schema !== undefined && schema !== null && asObject(schema) === null) {
      throw new McpError('protocol', `${server}: the tool "${shown}" has an invalid inputSchema`);
    }
    // An output schema that is not an object is ignored: it only serves to check results.
    const outputSchema = asObject(tool['outputSchema']);
    return {
      name,
      description: typeof tool['description'] === 'string' ? tool['description'] : '',
      inputSchema: asObject(schema) ?? { type: 'object' },
      annotations: normaliseAnnotations(tool['annotations']),
      ...(outputSchema === null ? {} : { outputSchema }),
    };
  };
}

/** A prompt entry, or null to skip one without a name. */
export function normalisePrompt(item: unknown): McpPromptInfo | null {
  const prompt = asObject(item);
  if (prompt === null || typeof prompt['name'] !== 'string' || prompt['name'] === '') return null;
  const rawArguments = Array.isArray(prompt['arguments']) ? prompt['arguments'] : [];
  const args: McpPromptInfo['arguments'] = [];
  for (const entry of rawArguments) {
    const argument = asObject(entry);
    if (argument === null || typeof argument['name'] !== 'string') continue;
    args.push({
      name: argument['name'],
      description: typeof argument['description'] === 'string' ? argument['description'] : '',
      required: argument['required'] === true,
    });
  }
  return {
    name: prompt['name'],
    description: typeof prompt['description'] === 'string' ? prompt['description'] : '',
    arguments: args,
  };
}

/** A resource entry, or null to skip one without a URI. */
/** A resource template; null without a usable `uriTemplate`. */
export function normaliseResourceTemplate(item: unknown): McpResourceTemplateInfo | null {
  const template = asObject(item);
  const uriTemplate = template?.['uriTemplate'];
  if (template === null || typeof uriTemplate !== 'string' || uriTemplate === '') return null;
  const name = template['name'];
  return {
    uriTemplate: uriTemplate.slice(0, 2000),
    name: typeof name === 'string' && name !== '' ? name.slice(0, 200) : uriTemplate.slice(0, 200),
    description:
      typeof template['description'] === 'string' ? template['description'].slice(0, 1000) : '',
    mimeType: typeof template['mimeType'] === 'string' ? template['mimeType'].slice(0, 100) : null,
  };
}

export function normaliseResource(item: unknown): McpResourceInfo | null {
  const resource = asObject(item);
  if (resource === null || typeof resource['uri'] !== 'string' || resource['uri'] === '') {
    return null;
  }
  const name = resource['name'];
  return {
    uri: resource['uri'],
    name: typeof name === 'string' && name !== '' ? name : resource['uri'],
    description: typeof resource['description'] === 'string' ? resource['description'] : '',
    mimeType: typeof resource['mimeType'] === 'string' ? resource['mimeType'] : null,
  };
}
