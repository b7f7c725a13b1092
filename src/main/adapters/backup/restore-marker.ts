/**
 * The marker of a restore's swap (`.restore-in-progress` in the data folder): the steps done so
 * far, recorded before each is made, and the restoring process. The app's start and the next
 * restore read it: a live restorer means wait; a dead one's steps are undone, so the data is as
 * it was before that restore. Synchronous and small: every start checks it.
 */
import { cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { AivoryError } from '../../../shared/errors';

/** Exists in the data folder while a restore swaps files; the app does not open under it. */
export const RESTORE_MARKER = '.restore-in-progress';

/** One step of a swap, as the marker records it: undone in reverse order. */
const stepSchema = z.union([
  z.object({ aside: z.string(), from: z.string() }),
  z.object({ placed: z.string() }),
]);
export type SwapStep = z.infer<typeof stepSchema>;
const markerSchema = z.object({
  pid: z.number().int(),
  aside: z.string(),
  steps: z.array(stepSchema),
});

/**
 * Undoes a swap's steps, last first: what was placed goes, what was moved aside comes back.
 * Synchronous, so the app's (synchronous) start can finish an interrupted restore's undo.
 */
export function undo(steps: readonly SwapStep[]): void {
  for (const step of [...steps].reverse()) {
    if ('placed' in step) {
      rmSync(step.placed, { recursive: true, force: true });
    } else if (existsSync(step.aside)) {
      rmSync(step.from, { recursive: true, force: true });
      moveToSync(step.aside, step.from);
    }
  }
}

/**
 * A restore that stopped during its swap (its process was killed) left the marker: its steps are
 * undone, so the data is as it was before that restore; returns true when there was one. A
 * restore still running (its process alive) is a `busy` error: nothing may open the data then.
 */
export function recoverInterruptedRestore(dataDir: string): boolean {
  const marker = join(dataDir, RESTORE_MARKER);
  let text: string;
  try {
    text = readFileSync(marker, 'utf8');
  } catch {
    return false;
  }
  const parsed = markerSchema.safeParse(safeJson(text));
  if (parsed.success) {
    if (parsed.data.pid !== process.pid && isAlive(parsed.data.pid)) {
      throw new AivoryError(
        'busy',
        `A backup is being restored into ${dataDir} (process ${parsed.data.pid}). Wait until it has finished, then try again.`,
      );
    }
    undo(parsed.data.steps);
    rmSync(parsed.data.aside, { recursive: true, force: true });
  }
  rmSync(marker, { force: true });
  return true;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

function moveToSync(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EXDEV') throw error;
    cpSync(from, to, { recursive: true, errorOnExist: true, force: false });
    rmSync(from, { recursive: true, force: true });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
