/**
 * Containers whose workspace could not be saved when their session ended (a full disk at
 * shutdown, or still at the next start): they are kept running with their files and listed in the
 * session index, saved again at the next start, and taken over by their conversation's next
 * session. Their files exist nowhere else, so nothing here removes one that still holds them.
 */
import type { IndexEntry } from './archive-store';
import type { DockerRuntime } from './docker-runtime';
import type { UnsavedWorkspace } from './sandbox-service';
import type { WorkspaceArchiver } from './workspace-archiver';
import { describe, WorkspaceLostError } from './workspace-saves';

export interface KeptContainer {
  containerId: string;
  /** The container's start time when its workspace was set up (see workspace-saves.ts). */
  startedAt: string | null;
  /** Why its workspace could not be saved. */
  error: string;
  /** When it was first kept (ISO time; kept across sidecar restarts through the index). */
  since: string;
}

export interface KeptContainersOptions {
  runtime: DockerRuntime;
  archiver: WorkspaceArchiver;
  logger: {
    info(message: string, fields?: object): void;
    error(message: string, fields?: object): void;
  };
  now: () => number;
}

export class KeptContainers {
  /** By conversation id. */
  private readonly kept = new Map<string, KeptContainer>();

  constructor(private readonly options: KeptContainersOptions) {}

  /** Whether the conversation's files are in a kept container (its next session takes it over). */
  has(conversationId: string): boolean {
    return this.kept.has(conversationId);
  }

  keep(conversationId: string, container: KeptContainer): void {
    this.kept.set(conversationId, container);
  }

  /**
   * Saves the workspace of a container a previous sidecar left; true when the container is kept
   * because that failed. One that restarted since it was set up holds nothing worth saving.
   */
  async saveLeftover(containerId: string, entry: IndexEntry): Promise<boolean> {
    const { runtime, archiver, logger } = this.options;
    const state = await runtime.containerState(containerId).catch(() => null);
    const startedAt = entry.started_at ?? state?.startedAt ?? null;
    if (state === null || state.startedAt !== startedAt) return false;
    try {
      await archiver.archive(containerId, entry.conversation, async () => {
        const now = await runtime.containerState(containerId);
        if (now?.startedAt !== startedAt) throw new WorkspaceLostError('the container restarted');
      });
      logger.info('leftover workspace saved', { conversation: entry.conversation });
      return false;
    } catch (error) {
      if (error instanceof WorkspaceLostError) return false;
      logger.error('leftover workspace not saved; its container is kept', {
        container: containerId,
        error: describe(error),
      });
      this.keep(entry.conversation, {
        containerId,
        startedAt,
        error: describe(error),
        since: entry.kept?.since ?? new Date(this.options.now()).toISOString(),
      });
      return true;
    }
  }

  /**
   * The conversation's kept container, taken off the list, if it still holds the files (running,
   * not restarted); one that no longer does is removed (its archive is restored as usual).
   */
  async take(conversationId: string): Promise<KeptContainer | null> {
    const kept = this.kept.get(conversationId);
    if (!kept) return null;
    this.kept.delete(conversationId);
    const state = await this.options.runtime.containerState(kept.containerId).catch(() => null);
    if (state?.running === true && state.startedAt === kept.startedAt) return kept;
    await this.options.runtime.removeContainer(kept.containerId).catch(() => undefined);
    return null;
  }

  /** Index entries for the kept containers (so the next start finds them again). */
  indexEntries(): Record<string, IndexEntry> {
    return Object.fromEntries(
      [...this.kept].map(([conversation, kept]) => [
        kept.containerId,
        {
          conversation,
          started_at: kept.startedAt,
          kept: { since: kept.since, error: kept.error },
        },
      ]),
    );
  }

  /** The kept workspaces and why each could not be saved. */
  unsaved(): UnsavedWorkspace[] {
    return [...this.kept].map(([conversation, kept]) => ({
      conversation_id: conversation,
      error: kept.error,
      container_id: kept.containerId,
      kept_since: kept.since,
    }));
  }
}
