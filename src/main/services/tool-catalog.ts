/**
 * The app's tools, as the `TurnTools` port gives them to the chat service: the always-there
 * built-ins (save_memory, use_skill), the built-ins built from settings and backends (web_fetch,
 * python_execute, …; `tool-preparation.ts`) and the MCP services' callable tools. Immutable: it
 * decides nothing (the chat service does, `tool-selection.ts`) and keeps no tool between calls.
 */
import type { BuiltTools, MissingTool, Tool, ToolCandidate, TurnTools } from '../core/ports';

/** The tools built from settings and backends (`tool-preparation.ts` over the app's context). */
export interface PreparedTools {
  names: readonly string[];
  /** Null when the backend is missing. */
  build(name: string): Promise<Tool | null>;
  /** Why the tool cannot be offered now (switched off globally, backend missing), or null. */
  status(name: string): Promise<string | null>;
}

/** MCP tools callable now, named deterministically around `reserved` names. */
export interface TurnMcpTools {
  tools(
    reserved: ReadonlySet<string>,
  ): Promise<{ tool: Tool; serviceId: string; serviceName: string }[]>;
  /**
   * The resource reader of each of these services (`mcp-resource-reader.ts`): a turn gets one
   * for every service whose tools it has, and never for another.
   */
  readers?(
    serviceIds: readonly string[],
    reserved: ReadonlySet<string>,
  ): Promise<{ tool: Tool; serviceId: string; serviceName: string }[]>;
}

/** A built-in tool as listings show it (`aivory tools`, doctor, `tools.status`). */
export interface ToolListing {
  name: string;
  /** False when switched off globally. */
  enabled: boolean;
  /** The tool when it can run now. */
  tool: Tool | null;
  /** Why it cannot run now, or null. */
  reason: string | null;
}

export class ToolCatalog implements TurnTools {
  /** Every built-in name, always-there tools first. */
  readonly builtInNames: readonly string[];

  constructor(
    private readonly parts: {
      builtIns: readonly Tool[];
      prepared: PreparedTools;
      mcp?: TurnMcpTools;
      /** The global switches (`tool_availability`). */
      switches: () => Record<string, boolean>;
    },
  ) {
    this.builtInNames = [
      ...parts.builtIns.map((tool) => tool.name),
      ...parts.prepared.names.filter((name) => !parts.builtIns.some((tool) => tool.name === name)),
    ];
  }

  async candidates(): Promise<ToolCandidate[]> {
    const mcp = await this.mcpEntries();
    return [
      ...this.builtInNames.map((name) => ({ name, source: 'built-in' as const })),
      ...mcp.map((entry) => ({
        name: entry.tool.name,
        source: 'mcp' as const,
        serviceId: entry.serviceId,
        serviceName: entry.serviceName,
      })),
    ];
  }

  async build(names: readonly string[]): Promise<BuiltTools> {
    const mcp = names.some((name) => !this.builtInNames.includes(name))
      ? await this.mcpEntries()
      : [];
    const tools: Tool[] = [];
    const missing: MissingTool[] = [];
    for (const name of new Set(names)) {
      const tool =
        this.parts.builtIns.find((candidate) => candidate.name === name) ??
        (this.parts.prepared.names.includes(name) ? await this.parts.prepared.build(name) : null) ??
        mcp.find((entry) => entry.tool.name === name)?.tool;
      if (tool) tools.push(tool);
      else missing.push({ name, reason: await this.missingReason(name) });
    }
    // Each MCP service the turn uses brings its resource reader (last: the cap drops them first).
    const used = [
      ...new Set(mcp.filter((entry) => tools.includes(entry.tool)).map((e) => e.serviceId)),
    ];
    if (used.length > 0 && this.parts.mcp?.readers) {
      const readers = await this.parts.mcp.readers(used, new Set(this.builtInNames));
      tools.push(...readers.map((reader) => reader.tool));
    }
    return { tools, missing };
  }

  /** The built-in tools (default: all) with their state; a globally switched-off one is not built. */
  async list(names: readonly string[] = this.builtInNames): Promise<ToolListing[]> {
    const switches = this.parts.switches();
    const rows: ToolListing[] = [];
    for (const name of names) {
      const enabled = switches[name] !== false;
      const { tools, missing } = enabled
        ? await this.build([name])
        : { tools: [], missing: [{ name, reason: 'switched off globally (settings → tools)' }] };
      rows.push({ name, enabled, tool: tools[0] ?? null, reason: missing[0]?.reason ?? null });
    }
    return rows;
  }

  /** Why a built-in tool cannot run now (null when it can), for `aivory tools` and doctor. */
  status(name: string): Promise<string | null> {
    return this.parts.prepared.status(name);
  }

  private async missingReason(name: string): Promise<string> {
    if (this.parts.prepared.names.includes(name))
      return (await this.parts.prepared.status(name)) ?? 'not available';
    return this.builtInNames.includes(name) ? 'not available' : 'not a built-in tool';
  }

  private async mcpEntries() {
    return this.parts.mcp ? this.parts.mcp.tools(new Set(this.builtInNames)) : [];
  }
}
