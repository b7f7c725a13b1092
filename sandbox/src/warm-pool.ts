/**
 * Containers kept started with a ready worker, so a new conversation's first result comes
 * quickly. Refilled in the background after each take; stopped and drained on shutdown.
 */
import type { WarmContainer } from './session-registry';

export interface WarmPoolOptions {
  /** How many warm containers to keep. */
  size: number;
  create(): Promise<WarmContainer>;
  remove(containerId: string): Promise<void>;
  logger: {
    info(message: string, fields?: object): void;
    warn(message: string, fields?: object): void;
  };
}

export class WarmPool {
  private readonly warm: WarmContainer[] = [];
  /** Warm containers being created; `drain` waits for them so none is left behind. */
  private readonly warming = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly options: WarmPoolOptions) {}

  /** A warm container, if one is ready (the caller then owns it). */
  take(): WarmContainer | undefined {
    return this.warm.shift();
  }

  /** Starts creating containers until the pool (ready plus being created) is full again. */
  refill(): void {
    if (this.stopped) return;
    while (this.warm.length + this.warming.size < this.options.size) {
      const creation = this.options
        .create()
        .then((container) => {
          if (this.stopped) return this.options.remove(container.containerId);
          this.warm.push(container);
          this.options.logger.info('warm container ready', { container: container.containerId });
          return undefined;
        })
        .catch((error: unknown) =>
          this.options.logger.warn('warm container failed', { error: String(error) }),
        )
        .finally(() => this.warming.delete(creation));
      this.warming.add(creation);
    }
  }

  /** No more refills; containers still being created remove themselves once created. */
  stop(): void {
    this.stopped = true;
  }

  /** Waits for the containers being created, then removes the ready ones. */
  async drain(): Promise<void> {
    await Promise.all([...this.warming]);
    const warm = this.warm.splice(0);
    await Promise.all(warm.map((entry) => this.options.remove(entry.containerId)));
  }
}
