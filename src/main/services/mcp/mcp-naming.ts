/**
 * How MCP tools are named for models: `<service>__<tool>`, only [A-Za-z0-9_-], at most 64
 * characters (the common provider limit). Collisions — two services whose names sanitise alike,
 * or names cut to the same 64 characters — are resolved deterministically with a short hash of
 * the service id and the tool name, so a tool keeps its model-facing name across restarts.
 */
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME_CHARS = 64;
const HASH_CHARS = 6;

/** `12306 火车查询` → `12306`; nothing usable → `mcp`. */
export function sanitizeNamePart(text: string): string {
  const cleaned = text
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '');
  return cleaned === '' ? 'mcp' : cleaned;
}

export interface NamedMcpTool {
  serviceId: string;
  serviceName: string;
  tool: string;
}

/**
 * Model-facing names for tools, in the order given (callers pass services by creation order,
 * tools by name, so the first comer keeps the plain name). `reserved` holds names already taken
 * (the built-in tools).
 */
export function namespaceTools(
  tools: readonly NamedMcpTool[],
  reserved: ReadonlySet<string> = new Set(),
): string[] {
  const taken = new Set(reserved);
  return tools.map((entry) => {
    const plain = `${sanitizeNamePart(entry.serviceName)}__${sanitizeNamePart(entry.tool)}`;
    let name = plain.slice(0, MAX_TOOL_NAME_CHARS);
    if (taken.has(name)) {
      const hash = createHash('sha256')
        .update(`${entry.serviceId}\u0000${entry.tool}`)
        .digest('hex')
        .slice(0, HASH_CHARS);
      name = `${plain.slice(0, MAX_TOOL_NAME_CHARS - HASH_CHARS - 1)}_${hash}`;
      for (let extra = 2; taken.has(name); extra++) {
        const suffix = `_${hash}${extra}`;
        name = `${plain.slice(0, MAX_TOOL_NAME_CHARS - suffix.length)}${suffix}`;
      }
    }
    taken.add(name);
    return name;
  });
}
