/**
 * The tools a turn may use: built-ins filtered by global availability (a tool switched off
 * globally is removed from every model), then by the turn's own selection.
 */
import { AivoryError } from '../../shared/errors';
import type { Tool } from '../core/ports';

export class ToolRegistry {
  private readonly tools: Tool[];

  constructor(
    tools: readonly Tool[],
    private readonly availability: () => Record<string, boolean>,
  ) {
    this.tools = [...tools];
  }

  /** Adds a tool whose backend turned out to be available (python_execute with a sandbox). */
  register(tool: Tool): void {
    if (!this.get(tool.name)) this.tools.push(tool);
  }

  /** Drops a backend tool so the next preparation builds it again from changed settings. */
  unregister(name: string): void {
    const index = this.tools.findIndex((tool) => tool.name === name);
    if (index >= 0) this.tools.splice(index, 1);
  }

  /** Every registered tool, enabled or not. */
  all(): readonly Tool[] {
    return this.tools;
  }

  get(name: string): Tool | undefined {
    return this.tools.find((tool) => tool.name === name);
  }

  /** Tools not switched off globally. */
  available(): Tool[] {
    const switches = this.availability();
    return this.tools.filter((tool) => switches[tool.name] !== false);
  }

  /**
   * The tools for one turn: `names` when given (an unknown or globally disabled name is an
   * error the user must see), otherwise every available tool.
   */
  select(names: readonly string[] | undefined): Tool[] {
    const available = this.available();
    if (names === undefined) return available;
    return names.map((name) => {
      const tool = available.find((candidate) => candidate.name === name);
      if (tool) return tool;
      const reason = this.get(name) ? 'is switched off in settings' : 'does not exist';
      const known = available.map((candidate) => candidate.name).join(', ') || 'none';
      throw new AivoryError(
        'invalid-input',
        `Tool "${name}" ${reason}. Available tools: ${known}.`,
      );
    });
  }
}
