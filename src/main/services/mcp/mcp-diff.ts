/**
 * The difference between a service's accepted tools and what its last sync found. New and changed
 * tools are not callable until the user accepts (tool-description poisoning and rug pulls show up
 * here instead of reaching the model silently).
 */
import type {
  McpToolChange,
  McpToolChangeKind,
  McpToolInfo,
  McpToolRecord,
} from '../../../shared/mcp';
import { canonicalJson } from '../../core/orchestrator/canonical-json';
import { changeDetail } from '../../../shared/mcp-change-detail';
import { boundedLine } from '../../../shared/untrusted-text';

export function diffTools(records: readonly McpToolRecord[]): McpToolChange[] {
  const changes: McpToolChange[] = [];
  for (const record of records) {
    const kinds = changeKinds(record.accepted, record.latest);
    if (kinds.length > 0) {
      changes.push({ tool: record.name, kinds, before: record.accepted, after: record.latest });
    }
  }
  return changes;
}

/**
 * True when `tools` (a fresh tools/list) is exactly the stored `latest` snapshot: same names, same
 * descriptions, schemas and annotations. A server that announces tools/list_changed without
 * changing anything (server-everything does on every connection) leaves the service as it was.
 */
export function matchesLatest(
  records: readonly McpToolRecord[],
  tools: readonly McpToolInfo[],
): boolean {
  const latest = new Map<string, McpToolInfo>();
  for (const record of records) if (record.latest !== null) latest.set(record.name, record.latest);
  if (latest.size !== tools.length) return false;
  return tools.every((tool) => {
    const stored = latest.get(tool.name);
    return stored !== undefined && changeKinds(stored, tool).length === 0;
  });
}

/** True when the tool may be called: accepted, still on the server, and unchanged since. */
export function isCallable(record: McpToolRecord): boolean {
  return record.accepted !== null && changeKinds(record.accepted, record.latest).length === 0;
}

function changeKinds(before: McpToolInfo | null, after: McpToolInfo | null): McpToolChangeKind[] {
  if (before === null && after === null) return [];
  if (before === null) return ['added'];
  if (after === null) return ['removed'];
  const kinds: McpToolChangeKind[] = [];
  if (before.description !== after.description) kinds.push('description');
  if (canonicalJson(before.inputSchema) !== canonicalJson(after.inputSchema)) kinds.push('schema');
  if (canonicalJson(before.annotations) !== canonicalJson(after.annotations))
    kinds.push('annotations');
  return kinds;
}

/** How much of a description the CLI shows: a changed one in full up to this… */
const CHANGED_DESCRIPTION_CHARS = 1000;
/** …a new tool's, shorter (a first sync lists every tool). */
const ADDED_DESCRIPTION_CHARS = 300;

/**
 * A change for the CLI (`aivory mcp sync|diff`): a headline (`~ weather: description changed`),
 * then, indented, the old and the new description and the schema and hint changes — server text
 * cleaned and bounded (see mcp-change-detail) — so the user sees what they would accept.
 */
export function describeChange(change: McpToolChange): string {
  const added = change.kinds.includes('added');
  const sign = added ? '+' : change.kinds.includes('removed') ? '-' : '~';
  const what =
    added || change.kinds.includes('removed')
      ? change.kinds[0]
      : `${change.kinds.join(', ')} changed`;
  const lines = [`${sign} ${boundedLine(change.tool, 120)}: ${what}`];
  const detail = changeDetail(change, added ? ADDED_DESCRIPTION_CHARS : CHANGED_DESCRIPTION_CHARS);
  if (detail.description !== null) {
    if (added) lines.push(`    description: ${detail.description.after ?? ''}`);
    else {
      lines.push(`    description before: ${detail.description.before ?? ''}`);
      lines.push(`    description now:    ${detail.description.after ?? ''}`);
    }
  }
  if (detail.schema.length > 0) {
    lines.push('    schema:');
    for (const line of detail.schema) lines.push(`      ${line}`);
  }
  if (detail.annotations.length > 0) {
    lines.push('    hints:');
    for (const line of detail.annotations) lines.push(`      ${line}`);
  }
  return lines.join('\n');
}
