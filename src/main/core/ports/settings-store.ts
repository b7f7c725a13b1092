/** Settings groups (JSON values), the configured models and the global tool switches. */
import type { ModelConfig } from '../../../shared/dto';

export interface SettingsStore {
  /** The stored JSON value, or undefined when the key was never saved. */
  getSetting(key: string): unknown;
  setSetting(key: string, value: unknown): void;
  /**
   * Reads `key` and, in the same write transaction, stores what `decide` returns for it (a
   * compare-and-set across processes); `decide` returning null writes nothing. True when written.
   */
  swapSetting(key: string, decide: (current: unknown) => { next: unknown } | null): boolean;

  listModels(): ModelConfig[];
  saveModel(model: ModelConfig): void;
  deleteModel(id: string): void;

  /** The global switches (`tool_availability`): a tool named false is off in every turn. */
  getToolAvailability(): Record<string, boolean>;
  setToolAvailability(name: string, enabled: boolean): void;
}
