/**
 * Keeps a session's files safe: the workspace is saved to its archive after every cell that
 * changed it (in the background, one save at a time per session), and restored into its container
 * when that container was restarted (stopped or killed from outside: its tmpfs comes back empty).
 *
 * The rule that keeps files: a workspace is saved only from the container it was set up in, and
 * only while that container has not restarted since (Docker's start time unchanged, checked after
 * tar finished and before the store keeps the archive). A restarted container's workspace is new
 * and empty; saving it would replace the files in the archive with nothing. A workspace that got
 * smaller in the same container did so because the code deleted files: that is the user's state.
 * The store also keeps the archive before the newest as a generation (archive-store.ts).
 */
import type { DockerRuntime } from './docker-runtime';
import type { SaveState, Session } from './session-registry';
import { freshSaveState } from './session-registry';
import type { RestoreResult, TarProcess, WorkspaceArchiver } from './workspace-archiver';

/** The workspace cannot be saved: its container restarted since it was set up (files are gone). */
export class WorkspaceLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspaceLostError';
  }
}

export interface WorkspaceSavesOptions {
  runtime: DockerRuntime;
  archiver: WorkspaceArchiver;
  logger: {
    info(message: string, fields?: object): void;
    warn(message: string, fields?: object): void;
  };
  now: () => number;
}

/** How a restore after a container restart went, for the message the user reads. */
export type RecoveryOutcome =
  | { restored: true; savedAt: number | null; olderSave?: RestoreResult['olderSave'] }
  | { restored: false; savedAt: null }
  | { failed: string };

export class WorkspaceSaves {
  constructor(private readonly options: WorkspaceSavesOptions) {}

  /**
   * The save state for a workspace just set up (restored, or new) in `containerId`; `saver` is a
   * `tar -c` started there for its first save, if any.
   */
  async setUp(
    containerId: string,
    savedAt: number | null = null,
    saver: Promise<TarProcess | null> | null = null,
  ): Promise<SaveState> {
    const state = await this.options.runtime.containerState(containerId);
    return { ...freshSaveState(state?.running === true ? state.startedAt : null, saver), savedAt };
  }

  /**
   * A cell ended (with the worker's workspace stamp; null: unknown) or a file was added (null):
   * the workspace is saved in the background unless it is known to be as last saved.
   */
  changed(session: Session, stamp: string | null, before: string | null = null): void {
    const saves = session.saves;
    saves.stamp = stamp;
    if (saves.needsRestore || saves.startedAt === null) return;
    if (saves.asSetUp && stamp !== null && before === stamp) {
      saves.savedStamp = stamp;
      return;
    }
    saves.asSetUp = false;
    if (stamp !== null && stamp === saves.savedStamp) return;
    if (saves.saving) {
      saves.again = true;
      return;
    }
    saves.saving = this.saveInBackground(session).finally(() => {
      saves.saving = null;
    });
  }

  /**
   * Saves the workspace now, after a save in progress; returns the archive's size. Throws when it
   * could not be saved (the archive in the store is then unchanged): WorkspaceLostError when the
   * container restarted since the workspace was set up. `last`: the container goes next (reaper,
   * shutdown), so no `tar -c` is started for a save after this one.
   */
  async save(session: Session, options: { last?: boolean } = {}): Promise<number> {
    await session.saves.saving;
    return this.saveNow(session, options.last === true);
  }

  /**
   * Waits for a background save in progress and the start of the `tar -c` for the next one
   * (tests, the bench, and shutdown before its final save).
   */
  async settled(session: Session): Promise<void> {
    while (session.saves.saving) await session.saves.saving;
    await session.saves.saver;
  }

  /**
   * Whether the container restarted since the workspace was set up (then `needsRestore` is set):
   * checked after the worker died or before a run, so lost files are restored before code runs.
   */
  async checkRestarted(session: Session): Promise<boolean> {
    const state = await this.options.runtime.containerState(session.containerId);
    if (state !== null && state.running && state.startedAt === session.saves.startedAt)
      return false;
    session.saves.needsRestore = true;
    return true;
  }

  /**
   * Restores the last save into the session's restarted container (which must run) and sets the
   * workspace up again. On failure the session keeps `needsRestore`: nothing is saved over the
   * archive, and the restore is tried again before the next run.
   */
  async recover(session: Session): Promise<RecoveryOutcome> {
    const savedAt = session.saves.savedAt;
    try {
      const result = await this.options.archiver.restore(
        session.containerId,
        session.conversationId,
        undefined,
        this.options.now,
      );
      const { restored, olderSave } = result;
      const at = olderSave ? olderSave.savedAt : restored ? savedAt : null;
      session.saves = await this.setUp(session.containerId, at);
      this.options.logger.warn('workspace restored into a restarted container', {
        session: session.id,
        restored,
      });
      logOlderSave(this.options.logger, session.conversationId, result);
      if (!restored) return { restored, savedAt: null };
      return olderSave ? { restored, savedAt: at, olderSave } : { restored, savedAt: at };
    } catch (error) {
      session.saves.needsRestore = true;
      return { failed: describe(error) };
    }
  }

  private async saveInBackground(session: Session): Promise<void> {
    do {
      session.saves.again = false;
      try {
        await this.saveNow(session);
      } catch {
        // Logged and kept in `saves.error`; the next cell (or the reaper, or shutdown) tries again.
        return;
      }
    } while (session.saves.again);
  }

  private async saveNow(session: Session, last = false): Promise<number> {
    const saves = session.saves;
    const { startedAt } = saves;
    if (saves.needsRestore || startedAt === null) {
      throw new WorkspaceLostError(
        'the container restarted and its files have not been restored yet; the last save is kept',
      );
    }
    const stamp = saves.stamp;
    const ready = await saves.saver;
    saves.saver = null;
    try {
      const size = await this.options.archiver.archive(
        session.containerId,
        session.conversationId,
        async () => {
          if (await this.checkRestarted(session)) {
            throw new WorkspaceLostError(
              'the container restarted while its workspace was being saved; the last save is kept',
            );
          }
        },
        ready ?? undefined,
      );
      saves.savedStamp = stamp;
      saves.savedAt = this.options.now();
      saves.error = null;
      this.options.logger.info('workspace saved', {
        conversation: session.conversationId,
        bytes: size,
      });
      return size;
    } catch (error) {
      // A failed tar on a container that died says little; the start time tells what happened.
      if (!(error instanceof WorkspaceLostError)) await this.checkRestarted(session).catch(() => 0);
      saves.error = describe(error);
      this.options.logger.warn('workspace not saved', {
        session: session.id,
        error: saves.error,
      });
      throw error;
    } finally {
      // The next save finds its tar waiting (not when the container goes next: nothing would
      // use it). A failed start leaves none; that save then starts its own.
      if (!last) {
        saves.saver = this.options.archiver.startSaver(session.containerId).catch(() => null);
      }
    }
  }
}

/** What the user reads about /workspace after its container was restarted under a session. */
export function recoveryNotice(outcome: RecoveryOutcome): string {
  if ('failed' in outcome) {
    return `Restoring /workspace from its last save failed (${outcome.failed}); the saved files are kept and restoring is tried again before the next run.`;
  }
  if (!outcome.restored) return 'There was no save of /workspace yet: it starts empty.';
  if (outcome.olderSave) return olderSaveNotice(outcome.olderSave.savedAt);
  const when = outcome.savedAt === null ? '' : ` of ${new Date(outcome.savedAt).toISOString()}`;
  return `/workspace was restored from its last save${when}; files changed after it are lost.`;
}

/** What the user reads when the last save was damaged and the one before it was restored. */
export function olderSaveNotice(savedAt: number | null): string {
  const when = savedAt === null ? '' : ` of ${new Date(savedAt).toISOString()}`;
  return `/workspace was restored from an older save${when} because the last save could not be read; files changed after it are lost.`;
}

/** Logs a restore that fell back to the previous save (what was damaged, where it is kept). */
export function logOlderSave(
  logger: { warn(message: string, fields?: object): void },
  conversationId: string,
  result: RestoreResult,
): void {
  if (!result.olderSave) return;
  const { damage, keptAs, keepError } = result.olderSave;
  logger.warn('the last save could not be read; the save before it was restored', {
    conversation: conversationId,
    damage,
    kept_as: keptAs,
    ...(keepError === undefined ? {} : { keep_error: keepError }),
  });
}

/** What the user reads while the workspace's saves fail (the files are only in the container). */
export function unsavedNotice(error: string): string {
  return `The files in /workspace could not be saved after an earlier run (${error}); they are still in the running container, and saving is tried again after each run.`;
}

/** An error as one bounded line for logs, health warnings and messages. */
export function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}
