/**
 * Per-turn tool budgets (seed 003, 内置工具清单与每轮预算): a cap per built-in tool, a total over
 * all tools that depends on the turn mode, and a separate limit on provider requests.
 */
import type { TurnMode } from '../../../shared/dto';
import { AivoryError } from '../../../shared/errors';
import { quotedValue } from '../../../shared/untrusted-text';
import type { BudgetCounter } from '../../../shared/turn-events';

/** Per-tool caps per turn. save_memory, use_skill and MCP tools have none (total only). */
export const PER_TOOL_CALL_CAPS: Readonly<Record<string, number>> = {
  aivory_web_search: 16,
  web_fetch: 12,
  fetch_image: 16,
  image_generate: 8,
  python_execute: 16,
};

/** Total tool calls per turn by mode: fast tightens to 12, deep research allows about 150. */
export const TOTAL_CALL_LIMITS: Readonly<Record<TurnMode, number>> = {
  fast: 12,
  normal: 48,
  deep: 150,
};

/** Provider requests per turn (seed default 20), the final tool-less answer round included. */
export const DEFAULT_PROVIDER_ROUNDS = 20;

/**
 * Deep research may use ~150 calls, and a prompt-mode model makes one call per request, so the
 * round limit in deep mode is raised to at least this.
 */
export const DEEP_MODE_MIN_PROVIDER_ROUNDS = 160;

/** The smallest sensible round limit: one round with tools plus the final answer round. */
const MIN_PROVIDER_ROUNDS = 2;

export interface TurnLimits {
  perTool: Readonly<Record<string, number>>;
  totalCalls: number;
  providerRounds: number;
}

export interface LimitOverrides {
  /** AIVORY_LLM_MAX_TOOL_CALLS_PER_TURN: replaces the normal-mode total. */
  maxToolCallsPerTurn?: number;
  /** AIVORY_LLM_MAX_PROVIDER_ROUNDS: replaces the default round limit. */
  maxProviderRounds?: number;
}

/** The limits of one turn in `mode`, after environment overrides. */
export function resolveTurnLimits(mode: TurnMode, overrides: LimitOverrides = {}): TurnLimits {
  const totalCalls =
    mode === 'normal' && overrides.maxToolCallsPerTurn !== undefined
      ? overrides.maxToolCallsPerTurn
      : TOTAL_CALL_LIMITS[mode];
  const baseRounds = Math.max(
    MIN_PROVIDER_ROUNDS,
    overrides.maxProviderRounds ?? DEFAULT_PROVIDER_ROUNDS,
  );
  const providerRounds =
    mode === 'deep' ? Math.max(baseRounds, DEEP_MODE_MIN_PROVIDER_ROUNDS) : baseRounds;
  return { perTool: PER_TOOL_CALL_CAPS, totalCalls: Math.max(0, totalCalls), providerRounds };
}

/**
 * Reads the two override variables. Unset or empty means the default; anything else must be a
 * positive whole number: a value that is not (`-3`, `ten`, `0`) is a `config` error naming the
 * variable and the value rather than silently ignored, so nobody runs turns under limits they
 * did not choose.
 */
export function limitOverridesFromEnv(env: Record<string, string | undefined>): LimitOverrides {
  const overrides: LimitOverrides = {};
  const calls = parsePositiveInteger('AIVORY_LLM_MAX_TOOL_CALLS_PER_TURN', env);
  const rounds = parsePositiveInteger('AIVORY_LLM_MAX_PROVIDER_ROUNDS', env);
  if (calls !== undefined) overrides.maxToolCallsPerTurn = calls;
  if (rounds !== undefined) overrides.maxProviderRounds = rounds;
  return overrides;
}

function parsePositiveInteger(
  name: string,
  env: Record<string, string | undefined>,
): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw new AivoryError(
    'config',
    `${name}=${quotedValue(text)} is not a positive whole number; set it to 1 or more, or unset it for the default.`,
  );
}

export type BudgetVerdict = 'allowed' | 'tool-cap' | 'total';

/** Counts executed calls of one turn against its limits. */
export class BudgetTracker {
  private readonly usedByTool = new Map<string, number>();
  private usedTotal = 0;

  constructor(
    private readonly limits: TurnLimits,
    private readonly toolNames: readonly string[],
  ) {}

  /** Whether one more call of `name` fits. The total is checked first. */
  check(name: string): BudgetVerdict {
    if (this.usedTotal >= this.limits.totalCalls) return 'total';
    const cap = this.limits.perTool[name];
    if (cap !== undefined && (this.usedByTool.get(name) ?? 0) >= cap) return 'tool-cap';
    return 'allowed';
  }

  record(name: string): void {
    this.usedTotal += 1;
    this.usedByTool.set(name, (this.usedByTool.get(name) ?? 0) + 1);
  }

  get totalExhausted(): boolean {
    return this.usedTotal >= this.limits.totalCalls;
  }

  /** True when `name` has a cap and reached it. */
  isCapped(name: string): boolean {
    const cap = this.limits.perTool[name];
    return cap !== undefined && (this.usedByTool.get(name) ?? 0) >= cap;
  }

  /** Executed calls per tool (only tools that ran). */
  counts(): Record<string, number> {
    return Object.fromEntries(this.usedByTool);
  }

  perTool(): Record<string, BudgetCounter> {
    const result: Record<string, BudgetCounter> = {};
    for (const name of this.toolNames) {
      result[name] = {
        used: this.usedByTool.get(name) ?? 0,
        limit: this.limits.perTool[name] ?? null,
      };
    }
    return result;
  }

  total(): BudgetCounter {
    return { used: this.usedTotal, limit: this.limits.totalCalls };
  }
}
