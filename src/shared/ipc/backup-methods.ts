/**
 * Backups (Settings → Data → Backups): where they stand — the last verified backup, the last
 * attempt and whether it failed or the schedule is overdue — the schedule's settings, the saved
 * passphrase (never its value), and "Back up now": one at a time across processes (`busy` while
 * another runs), progress on `backups.progress`, cancellable. `backups.status` is also pushed
 * whenever a backup starts, ends or fails, here or in another Aivory process.
 */
import { z } from 'zod';
import { MIN_PASSPHRASE_LENGTH } from './limits';

const attemptSchema = z.object({
  /** When it started (ms since the epoch). */
  at: z.number(),
  ok: z.boolean(),
  folder: z.string(),
  /** Why it failed; null when it worked. */
  message: z.string().nullable(),
  file: z.string().nullable(),
  size: z.number().nullable(),
  /** When it was read back whole and found good. */
  verifiedAt: z.number().nullable(),
  secrets: z.enum(['encrypted', 'left-out', 'none']).nullable(),
});

const scheduleFields = {
  auto: z.boolean(),
  /** An absolute path; null: the data folder's `backups/`. */
  folder: z.string().trim().min(1).max(4096).nullable(),
  intervalHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30),
  keep: z.number().int().min(1).max(100),
  includeSecrets: z.boolean(),
};

export const backupStatusViewSchema = z.object({
  schedule: z.object({ ...scheduleFields, passphraseSaved: z.boolean() }),
  /** Where backups go when no folder is chosen. */
  defaultFolder: z.string(),
  last: attemptSchema.nullable(),
  lastGood: attemptSchema.nullable(),
  /** `failed`: the last attempt failed; `overdue` / `never`: automatic backups are behind. */
  health: z.enum(['ok', 'failed', 'overdue', 'never']),
  /** A backup is being written (here or by another Aivory process). */
  running: z.boolean(),
  /** The desktop app can show a folder dialog (the browser host cannot). */
  canPickFolder: z.boolean(),
});

/** What the Data page shows of the backups. */
export type BackupStatusView = z.infer<typeof backupStatusViewSchema>;

/** The backup methods, spread into `invokeContract`. */
export const backupMethods = {
  'backups.status': {
    request: z.object({}).strict().optional(),
    response: backupStatusViewSchema,
  },
  /** Changes the schedule (validated as `aivory settings set backups.*` is). */
  'backups.setSchedule': {
    request: z.object(scheduleFields).partial().strict(),
    response: backupStatusViewSchema,
  },
  /** Saves (or with null removes) the passphrase that seals the automatic backups' secrets. */
  'backups.setPassphrase': {
    request: z
      .object({ passphrase: z.string().min(MIN_PASSPHRASE_LENGTH).max(1024).nullable() })
      .strict(),
    response: backupStatusViewSchema,
  },
  /** Makes the schedule's backup now; resolves once it is written and verified. */
  'backups.create': {
    request: z.object({}).strict(),
    response: backupStatusViewSchema,
  },
  /** Stops the backup "Back up now" started (nothing of it is kept). */
  'backups.cancel': {
    request: z.object({}).strict(),
    response: z.object({ ok: z.literal(true) }),
  },
  /** The desktop's "choose a folder" dialog: the chosen folder, or null when canceled. */
  'backups.pickFolder': {
    request: z.object({}).strict().optional(),
    response: z.object({ path: z.string().nullable() }),
  },
};

/** The backup events, spread into `eventContract`. */
export const backupEvents = {
  /** How far the backup "Back up now" started is. */
  'backups.progress': z.object({
    phase: z.enum(['database', 'files']),
    done: z.number().nonnegative(),
    total: z.number().nonnegative(),
  }),
  /** The backups' status changed (a backup started, ended or failed, in any process). */
  'backups.status': backupStatusViewSchema,
};
