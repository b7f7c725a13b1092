/**
 * What exactly changed in one tool of a sync diff, for the CLI (`aivory mcp sync|diff`) and the
 * settings page: the old and the new description and the schema's property-level changes. Server
 * text is untrusted: control, bidi and zero-width characters are stripped (they could hide or
 * reorder what the user reads) and every piece is bounded, saying how much was left out.
 */
import type { McpToolChange, McpToolInfo } from './mcp';
import { boundedLine } from './untrusted-text';

export interface McpChangeDetail {
  /** The old and new description, when it changed (or the new one of an added tool). */
  description: { before: string | null; after: string | null } | null;
  /** One line per schema change: `+ city (string, required)`, `- units`, `~ days: …`. */
  schema: string[];
  /** One line per changed hint: `readOnlyHint: true → false`. */
  annotations: string[];
}

/** The detail of one change; `max` bounds each description (schema lines have their own cap). */
export function changeDetail(change: McpToolChange, max = 1000): McpChangeDetail {
  const { before, after } = change;
  const kinds = change.kinds;
  const description =
    kinds.includes('description') || kinds.includes('added')
      ? {
          before: before === null ? null : boundedLine(before.description, max),
          after: after === null ? null : boundedLine(after.description, max),
        }
      : null;
  return {
    description,
    schema: kinds.includes('schema') && before && after ? schemaChanges(before, after) : [],
    annotations:
      kinds.includes('annotations') && before && after ? annotationChanges(before, after) : [],
  };
}

/** How many schema / annotation lines are shown; the rest is counted. */
const MAX_LINES = 30;
/** A property's schema as shown in a line. */
const MAX_SCHEMA_CHARS = 160;

function schemaChanges(before: McpToolInfo, after: McpToolInfo): string[] {
  const lines: string[] = [];
  const oldProps = properties(before.inputSchema);
  const newProps = properties(after.inputSchema);
  const oldRequired = required(before.inputSchema);
  const newRequired = required(after.inputSchema);
  for (const [name, schema] of newProps) {
    const label = boundedLine(name, 80);
    const previous = oldProps.get(name);
    if (previous === undefined) {
      const flags = [typeOf(schema), newRequired.has(name) ? 'required' : null].filter(Boolean);
      lines.push(`+ ${label} (${flags.join(', ')})`);
    } else if (stable(previous) !== stable(schema)) {
      lines.push(`~ ${label}: ${shown(previous)} → ${shown(schema)}`);
    }
  }
  for (const name of oldProps.keys()) {
    if (!newProps.has(name)) lines.push(`- ${boundedLine(name, 80)}`);
  }
  for (const name of newRequired) {
    if (!oldRequired.has(name) && oldProps.has(name))
      lines.push(`~ ${boundedLine(name, 80)}: now required`);
  }
  for (const name of oldRequired) {
    if (!newRequired.has(name) && newProps.has(name))
      lines.push(`~ ${boundedLine(name, 80)}: no longer required`);
  }
  const keys = new Set([...Object.keys(before.inputSchema), ...Object.keys(after.inputSchema)]);
  for (const key of [...keys].sort()) {
    if (key === 'properties' || key === 'required') continue;
    const oldValue = before.inputSchema[key];
    const newValue = after.inputSchema[key];
    if (stable(oldValue) !== stable(newValue)) {
      lines.push(`~ schema "${boundedLine(key, 80)}": ${shown(oldValue)} → ${shown(newValue)}`);
    }
  }
  if (lines.length === 0) lines.push('~ schema changed');
  return capped(lines);
}

function annotationChanges(before: McpToolInfo, after: McpToolInfo): string[] {
  const oldHints: Record<string, unknown> = { ...before.annotations };
  const newHints: Record<string, unknown> = { ...after.annotations };
  const lines: string[] = [];
  for (const key of [...new Set([...Object.keys(oldHints), ...Object.keys(newHints)])].sort()) {
    if (stable(oldHints[key]) !== stable(newHints[key])) {
      lines.push(`${boundedLine(key, 80)}: ${shown(oldHints[key])} → ${shown(newHints[key])}`);
    }
  }
  return capped(lines);
}

function capped(lines: string[]): string[] {
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES), `… and ${lines.length - MAX_LINES} more`];
}

function properties(schema: Record<string, unknown>): Map<string, unknown> {
  const props = schema['properties'];
  if (typeof props !== 'object' || props === null || Array.isArray(props)) return new Map();
  return new Map(Object.entries(props as Record<string, unknown>));
}

function required(schema: Record<string, unknown>): Set<string> {
  const list = schema['required'];
  return new Set(Array.isArray(list) ? list.filter((item) => typeof item === 'string') : []);
}

function typeOf(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'any';
  const type = (schema as Record<string, unknown>)['type'];
  if (typeof type === 'string') return boundedLine(type, 40);
  if (Array.isArray(type)) return boundedLine(type.map(String).join(' | '), 60);
  return 'any';
}

function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  return boundedLine(stable(value), MAX_SCHEMA_CHARS);
}

/** JSON with sorted keys, so key order is no change. */
function stable(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
