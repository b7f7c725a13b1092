/**
 * Where backups stand, for every process on one data folder: the last attempt and the last good
 * backup (a row of the settings table that no `settings set` reaches), and the claim of the backup
 * being made (another row, compare-and-set across processes). Every backup goes through
 * `attempt` — the CLI's, the app's "Back up now" and the schedule's — so its outcome is recorded
 * whoever made it, and two processes (the desktop app and `aivory serve`) never write one at once.
 *
 * A claim names its owner's pid and a heartbeat the owner renews while it writes. It is live while
 * its owner is this process and holds it here, or another process that is alive and renewed it
 * within `CLAIM_STALE_MS`; anything else is taken over (an owner killed at once, a reused pid once
 * the heartbeat is old), as turn leases are (`adapters/sqlite/turn-leases.ts`).
 */
import * as z from 'zod/mini';
import { AivoryError, toPublicError } from '../../shared/errors';
import type { Clock, Logger, SettingsStore } from '../core/ports';

/** The settings rows (not settings groups: `settings set` refuses them). */
export const BACKUP_STATUS_KEY = 'backup-status';
export const BACKUP_CLAIM_KEY = 'backup-claim';

/** How often a running backup renews its claim, and when a claim not renewed is stale. */
export const CLAIM_HEARTBEAT_MS = 15_000;
export const CLAIM_STALE_MS = 120_000;

const attemptShape = () =>
  z.object({
    /** When the attempt started (ms since the epoch). */
    at: z.number(),
    ok: z.boolean(),
    /** The folder it was written to. */
    folder: z.string(),
    /** A failure's public message; null when it worked. */
    message: z.nullable(z.string()),
    file: z.nullable(z.string()),
    size: z.nullable(z.number()),
    /** When it was read back whole and found good. */
    verifiedAt: z.nullable(z.number()),
    secrets: z.nullable(z.enum(['encrypted', 'left-out', 'none'])),
  });
export type BackupAttempt = z.infer<ReturnType<typeof attemptShape>>;

const statusShape = () => {
  const attempt = attemptShape();
  return z.object({
    last: z.nullable(attempt),
    lastGood: z.nullable(attempt),
    /** Failed attempts since the last good one: the schedule waits longer after each. */
    failures: z.number(),
  });
};
export type BackupStatus = z.infer<ReturnType<typeof statusShape>>;

const claimShape = () => z.object({ pid: z.number(), token: z.string(), heartbeatAt: z.number() });
type Claim = z.infer<ReturnType<typeof claimShape>>;

/**
 * The schemas, built at first use: every command opens the app context, few read a backup's
 * status (a zod schema costs ~50 µs a node to build; issue 24).
 */
let schemas: {
  status: ReturnType<typeof statusShape>;
  claim: ReturnType<typeof claimShape>;
} | null = null;
const built = () => (schemas ??= { status: statusShape(), claim: claimShape() });

const EMPTY: BackupStatus = { last: null, lastGood: null, failures: 0 };

/** What a backup reports once written and verified. */
export interface MadeBackup {
  file: string;
  size: number;
  manifest: { secrets: 'encrypted' | 'left-out' | 'none' };
}

/** Claims held by this process, by token (a row with this pid and another token is a leftover). */
const heldHere = new Set<string>();

/** The status and claim rows over the settings store. */
export class BackupStatusBook {
  private readonly listeners = new Set<() => void>();
  private seen: string | null = null;

  constructor(
    private readonly store: Pick<SettingsStore, 'getSetting' | 'setSetting' | 'swapSetting'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly isProcessAlive: (pid: number) => boolean,
  ) {}

  /** The stored status; a row that does not parse (hand-edited) reads as no backup yet. */
  read(): BackupStatus {
    const parsed = built().status.safeParse(this.store.getSetting(BACKUP_STATUS_KEY));
    return parsed.success ? parsed.data : EMPTY;
  }

  /** Whether a live claim is held (a backup is being written, here or by another process). */
  running(): boolean {
    const claim = built().claim.safeParse(this.store.getSetting(BACKUP_CLAIM_KEY));
    return claim.success && this.isLive(claim.data, this.clock.now());
  }

  /** Calls `listener` whenever the status or the claim changes (see `refresh`). */
  onChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells the listeners if the rows changed since last seen: another process's backup is noticed
   * when this is called (the schedule calls it on every check).
   */
  refresh(): void {
    let now: string;
    try {
      now = JSON.stringify([this.read(), this.running()]);
    } catch (error) {
      this.logger.warn('the backup status could not be read', { error: (error as Error).message });
      return;
    }
    if (now === this.seen) return;
    this.seen = now;
    for (const listener of this.listeners) listener();
  }

  /**
   * Makes a backup to `folder` with `make` under the claim, and records how it went. Throws
   * `busy` without recording when another backup holds the claim; a cancel is not recorded.
   */
  async attempt<T extends MadeBackup>(folder: string, make: () => Promise<T>): Promise<T> {
    const claim = this.claim();
    if (claim === null) throw busyError();
    return this.underClaim(claim, folder, make);
  }

  /**
   * `attempt` for the schedule: once the claim is held, `due` is asked again (another process may
   * have just made the backup); not due, nothing is made and null returned.
   */
  async attemptIfDue<T extends MadeBackup>(
    folder: string,
    due: () => boolean,
    make: () => Promise<T>,
  ): Promise<T | null> {
    const claim = this.claim();
    if (claim === null) throw busyError();
    if (!due()) {
      this.release(claim);
      return null;
    }
    return this.underClaim(claim, folder, make);
  }

  private async underClaim<T extends MadeBackup>(
    claim: Claim,
    folder: string,
    make: () => Promise<T>,
  ): Promise<T> {
    const heartbeat = setInterval(() => this.renew(claim), CLAIM_HEARTBEAT_MS);
    heartbeat.unref();
    const at = this.clock.now();
    this.refresh();
    try {
      const made = await make();
      this.record({
        at,
        ok: true,
        folder,
        message: null,
        file: made.file,
        size: made.size,
        verifiedAt: this.clock.now(),
        secrets: made.manifest.secrets,
      });
      return made;
    } catch (error) {
      const failure = toPublicError(error);
      if (failure.code !== 'canceled') {
        this.record({
          at,
          ok: false,
          folder,
          message: failure.message,
          file: null,
          size: null,
          verifiedAt: null,
          secrets: null,
        });
      }
      throw error;
    } finally {
      clearInterval(heartbeat);
      this.release(claim);
      this.refresh();
    }
  }

  private record(attempt: BackupAttempt): void {
    try {
      const status = this.read();
      this.store.setSetting(BACKUP_STATUS_KEY, {
        last: attempt,
        lastGood: attempt.ok ? attempt : status.lastGood,
        failures: attempt.ok ? 0 : status.failures + 1,
      } satisfies BackupStatus);
    } catch (error) {
      // The backup's own outcome stands; the log says the status could not follow it.
      this.logger.error('the backup status could not be recorded', {
        ok: attempt.ok,
        error: (error as Error).message,
      });
    }
  }

  /** Takes the claim, or null when a live claim of another backup holds it. */
  private claim(): Claim | null {
    const mine: Claim = {
      pid: process.pid,
      token: process.getBuiltinModule('node:crypto').randomUUID(),
      heartbeatAt: this.clock.now(),
    };
    const taken = this.store.swapSetting(BACKUP_CLAIM_KEY, (current) => {
      const held = built().claim.safeParse(current);
      return held.success && this.isLive(held.data, mine.heartbeatAt) ? null : { next: mine };
    });
    if (!taken) return null;
    heldHere.add(mine.token);
    return mine;
  }

  private isLive(claim: Claim, now: number): boolean {
    if (claim.pid === process.pid) return heldHere.has(claim.token);
    return this.isProcessAlive(claim.pid) && now - claim.heartbeatAt < CLAIM_STALE_MS;
  }

  /** Renews the heartbeat; a failure (a lock held long) is left to the next beat. */
  private renew(claim: Claim): void {
    try {
      this.store.swapSetting(BACKUP_CLAIM_KEY, (current) => {
        const held = built().claim.safeParse(current);
        return held.success && held.data.token === claim.token
          ? { next: { ...claim, heartbeatAt: this.clock.now() } }
          : null;
      });
    } catch {
      // The claim stays live for many beats.
    }
  }

  /** Gives the claim back; if the row cannot be written, the claim is stale here at once. */
  private release(claim: Claim): void {
    heldHere.delete(claim.token);
    try {
      this.store.swapSetting(BACKUP_CLAIM_KEY, (current) => {
        const held = built().claim.safeParse(current);
        return held.success && held.data.token === claim.token ? { next: undefined } : null;
      });
    } catch {
      // Stale already, see above.
    }
  }
}

/** Another backup holds the claim. */
export function busyError(): AivoryError {
  return new AivoryError(
    'busy',
    'A backup is being made already (by this app or another Aivory process); wait for it to finish.',
  );
}

/** How the backups stand, as `aivory doctor`, `backup status` and the Data page tell it. */
export interface BackupHealth {
  /**
   * `ok`: nothing to warn about; `failed`: the last attempt failed; `overdue`: automatic backups
   * are on and the last good one is older than twice the interval; `never`: they are on and none
   * was ever made.
   */
  state: 'ok' | 'failed' | 'overdue' | 'never';
  /** The warning in English (the CLI's words); null when `ok`. */
  warning: string | null;
}

/** The health of `status` under the schedule `settings` at `now`. */
export function backupHealth(
  status: BackupStatus,
  settings: { auto: boolean; intervalHours: number },
  now: number,
): BackupHealth {
  const { last, lastGood } = status;
  if (last !== null && !last.ok) {
    return {
      state: 'failed',
      warning: `The last backup failed ${formatAge(now - last.at)} ago: ${last.message ?? 'no reason was recorded'}`,
    };
  }
  if (!settings.auto) return { state: 'ok', warning: null };
  if (lastGood === null) {
    return {
      state: 'never',
      warning:
        'Automatic backups are on but no backup was made yet; they are made while the desktop app or aivory serve runs.',
    };
  }
  const intervalMs = settings.intervalHours * 3_600_000;
  if (now - lastGood.at > 2 * intervalMs) {
    return {
      state: 'overdue',
      warning: `The last good backup is ${formatAge(now - lastGood.at)} old, more than twice the interval (${settings.intervalHours} h); the desktop app or aivory serve makes them while it runs.`,
    };
  }
  return { state: 'ok', warning: null };
}

/** "3 minutes", "5 hours", "2 days": an age in its largest whole unit. */
export function formatAge(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1000, 'second'],
  ];
  for (const [size, name] of units) {
    const count = Math.floor(Math.max(0, ms) / size);
    if (count >= 1 || size === 1000) return `${count} ${name}${count === 1 ? '' : 's'}`;
  }
  return '0 seconds';
}
