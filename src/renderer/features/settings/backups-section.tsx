/**
 * 数据 → 备份: the last verified backup (its age, file, size, whether the secrets were sealed or
 * left out), a warning strip when the last attempt failed or automatic backups are behind, "Back
 * up now" with its progress and a cancel, and the schedule: the switch, the folder (the desktop's
 * dialog, or a typed path), the interval, how many to keep, and the secrets with their passphrase
 * (never shown back). The host pushes `backups.status` when a backup starts, ends or fails.
 */
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '../../../shared/byte-size';
import { MIN_PASSPHRASE_LENGTH } from '../../../shared/ipc/limits';
import {
  backUpNow,
  type BackupStatusView,
  backupStatus,
  cancelBackup,
  pickBackupFolder,
  setBackupPassphrase,
  setBackupSchedule,
} from '../../data/backups';
import type { Translate } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { Field, type SaveState, SaveRow, Switch } from './form-controls';
import { errorMessage } from './form-rules';
import { SecretInput } from './secret-field';

type Progress = { phase: 'database' | 'files'; done: number; total: number } | null;

/** The backups block of the Data page. */
export function BackupsSection(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const [view, setView] = useState<BackupStatusView | null>(null);
  const [running, setRunning] = useState<Progress | 'starting' | null>(null);
  const [outcome, setOutcome] = useState<'done' | { failed: string } | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (!bridge) return;
    void backupStatus(bridge).then((status) => mounted.current && setView(status));
    const offStatus = bridge.onEvent('backups.status', setView);
    const offProgress = bridge.onEvent('backups.progress', (progress) =>
      setRunning((current) => (current === null ? current : progress)),
    );
    return () => {
      offStatus();
      offProgress();
    };
  }, [bridge]);
  const start = async (): Promise<void> => {
    if (!bridge) return;
    setRunning('starting');
    setOutcome(null);
    try {
      const status = await backUpNow(bridge);
      if (!mounted.current) return;
      setView(status);
      setOutcome('done');
    } catch (error) {
      if (!mounted.current) return;
      const canceled = (error as { code?: unknown }).code === 'canceled';
      if (!canceled) setOutcome({ failed: errorMessage(error) });
      void backupStatus(bridge).then((status) => mounted.current && setView(status));
    } finally {
      if (mounted.current) setRunning(null);
    }
  };
  if (view === null) return null;
  return (
    <section className="settings-block" data-testid="backups">
      <h3>{t('data.backup.title')}</h3>
      <p className="muted">{t('data.backup.intro')}</p>
      <BackupWarning view={view} />
      <LastGood view={view} />
      <div className="data-export-row">
        {running === null ? (
          <button
            type="button"
            className="button primary"
            data-testid="backup-now"
            disabled={view.running}
            onClick={() => void start()}
          >
            {t('data.backup.now')}
          </button>
        ) : (
          <button
            type="button"
            className="button"
            data-testid="backup-cancel"
            onClick={() => bridge && void cancelBackup(bridge)}
          >
            {t('data.backup.cancel')}
          </button>
        )}
        {running === null && view.running && (
          <span className="muted" role="status">
            {t('data.backup.running')}
          </span>
        )}
      </div>
      {running !== null && <BackupProgress progress={running === 'starting' ? null : running} />}
      {outcome === 'done' && (
        <p className="check-ok" role="status" data-testid="backup-done">
          {t('data.backup.done')}
        </p>
      )}
      {typeof outcome === 'object' && outcome !== null && (
        <p className="field-error" role="alert" data-testid="backup-error">
          {outcome.failed}
        </p>
      )}
      <ScheduleForm view={view} onSaved={setView} />
    </section>
  );
}

/** The strip that says why the backups need the user: a failure, overdue, or never made. */
function BackupWarning(props: { view: BackupStatusView }): ReactNode {
  const t = useT();
  const locale = useApp((state) => state.locale);
  const { view } = props;
  if (view.health === 'ok') return null;
  const text =
    view.health === 'failed' && view.last !== null
      ? t('data.backup.failed', {
          age: relativeAge(view.last.at, locale),
          message: view.last.message ?? '',
        })
      : view.health === 'overdue' && view.lastGood !== null
        ? t('data.backup.overdue', { age: relativeAge(view.lastGood.at, locale) })
        : t('data.backup.never');
  return (
    <p className="notice" role="alert" data-testid="backup-warning" data-health={view.health}>
      {text}
    </p>
  );
}

/** The last verified backup: when, which file, how big, and its secrets. */
function LastGood(props: { view: BackupStatusView }): ReactNode {
  const t = useT();
  const locale = useApp((state) => state.locale);
  const good = props.view.lastGood;
  if (good === null) {
    return (
      <div data-testid="backup-last-good" className="backup-last-good">
        <p className="muted">{t('data.backup.none')}</p>
      </div>
    );
  }
  return (
    <div data-testid="backup-last-good" className="backup-last-good">
      <p>{t('data.backup.lastGood', { age: relativeAge(good.verifiedAt ?? good.at, locale) })}</p>
      <p className="muted backup-file">
        {t('data.backup.file', {
          file: good.file ?? good.folder,
          size: formatBytes(good.size ?? 0),
        })}
      </p>
      <p className="muted">{secretsText(t, good.secrets)}</p>
    </div>
  );
}

function secretsText(t: Translate, secrets: 'encrypted' | 'left-out' | 'none' | null): string {
  if (secrets === 'encrypted') return t('data.backup.secretsSealed');
  if (secrets === 'left-out') return t('data.backup.secretsLeftOut');
  return t('data.backup.secretsNone');
}

function BackupProgress(props: { progress: Progress }): ReactNode {
  const t = useT();
  const { progress } = props;
  const files = progress?.phase === 'files';
  return (
    <div className="data-export-progress" data-testid="backup-progress">
      <progress
        max={files ? progress.total : undefined}
        value={files ? progress.done : undefined}
        aria-label={t('data.backup.title')}
      />
      <span role="status">
        {files
          ? t('data.backup.writing', {
              done: formatBytes(progress.done),
              total: formatBytes(progress.total),
            })
          : t('data.backup.copying')}
      </span>
    </div>
  );
}

/** The schedule's fields, saved together; the passphrase on its own. */
function ScheduleForm(props: {
  view: BackupStatusView;
  onSaved(view: BackupStatusView): void;
}): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const { schedule } = props.view;
  const [auto, setAuto] = useState(schedule.auto);
  const [folder, setFolder] = useState(schedule.folder ?? '');
  const [interval, setIntervalHours] = useState(String(schedule.intervalHours));
  const [keep, setKeep] = useState(String(schedule.keep));
  const [includeSecrets, setIncludeSecrets] = useState(schedule.includeSecrets);
  const [state, setState] = useState<SaveState>('idle');
  const [dirty, setDirty] = useState(false);
  const edited = (): void => {
    setDirty(true);
    setState('idle');
  };
  // A schedule changed elsewhere (another window, the CLI) shows here unless the user is editing.
  const shown = JSON.stringify(schedule);
  useEffect(() => {
    if (dirty) return;
    const current = JSON.parse(shown) as BackupStatusView['schedule'];
    setAuto(current.auto);
    setFolder(current.folder ?? '');
    setIntervalHours(String(current.intervalHours));
    setKeep(String(current.keep));
    setIncludeSecrets(current.includeSecrets);
  }, [shown, dirty]);
  const save = async (): Promise<void> => {
    if (!bridge) return;
    setState('saving');
    try {
      props.onSaved(
        await setBackupSchedule(bridge, {
          auto,
          folder: folder.trim() === '' ? null : folder.trim(),
          intervalHours: Number(interval),
          keep: Number(keep),
          includeSecrets,
        }),
      );
      setDirty(false);
      setState('saved');
    } catch (error) {
      setState({ failed: errorMessage(error) });
    }
  };
  const choose = async (): Promise<void> => {
    if (!bridge) return;
    const path = await pickBackupFolder(bridge).catch(() => null);
    if (path !== null) {
      setFolder(path);
      edited();
    }
  };
  return (
    <div className="backup-schedule" data-testid="backup-schedule">
      <h4>{t('data.backup.schedule')}</h4>
      <Switch
        checked={auto}
        label={t('data.backup.auto')}
        testId="backup-auto"
        onChange={(checked) => {
          setAuto(checked);
          edited();
        }}
      />
      <Field label="data.backup.folder" testId="backup-folder">
        <span className="backup-folder-row">
          <input
            type="text"
            data-testid="backup-folder"
            value={folder}
            placeholder={props.view.defaultFolder}
            onChange={(event) => {
              setFolder(event.target.value);
              edited();
            }}
          />
          {props.view.canPickFolder && (
            <button type="button" className="button" onClick={() => void choose()}>
              {t('data.backup.choose')}
            </button>
          )}
        </span>
        <span className="field-hint">
          {t('data.backup.folderHint', { folder: props.view.defaultFolder })}
        </span>
      </Field>
      <div className="backup-numbers">
        <Field label="data.backup.interval" testId="backup-interval">
          <input
            type="number"
            min={1}
            max={720}
            data-testid="backup-interval"
            value={interval}
            onChange={(event) => {
              setIntervalHours(event.target.value);
              edited();
            }}
          />
        </Field>
        <Field label="data.backup.keep" testId="backup-keep">
          <input
            type="number"
            min={1}
            max={100}
            data-testid="backup-keep"
            value={keep}
            onChange={(event) => {
              setKeep(event.target.value);
              edited();
            }}
          />
        </Field>
      </div>
      <Switch
        checked={includeSecrets}
        label={t('data.backup.includeSecrets')}
        testId="backup-include-secrets"
        onChange={(checked) => {
          setIncludeSecrets(checked);
          edited();
        }}
      />
      {includeSecrets && (
        <PassphraseField saved={schedule.passphraseSaved} onSaved={props.onSaved} />
      )}
      <SaveRow
        state={state}
        testId="backup-save"
        label="data.backup.save"
        onSave={() => void save()}
      />
    </div>
  );
}

/** The passphrase: a password field; the saved one is never shown, only that there is one. */
function PassphraseField(props: {
  saved: boolean;
  onSaved(view: BackupStatusView): void;
}): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  return (
    <SecretInput
      testId="backup-passphrase"
      stateTestId="backup-passphrase-state"
      label="data.backup.passphrase"
      hint="data.backup.passphraseHint"
      savedText={props.saved ? t('data.backup.passphraseSaved') : t('data.backup.passphraseNone')}
      autoComplete="new-password"
      saveLabel="data.backup.passphraseSave"
      clearLabel="data.backup.passphraseClear"
      hasSaved={props.saved}
      canSave={(value) => value.length >= MIN_PASSPHRASE_LENGTH}
      save={async (passphrase) => {
        if (bridge) props.onSaved(await setBackupPassphrase(bridge, passphrase));
      }}
    />
  );
}

/** "3 hours ago" / "3小时前" in the UI's language. */
export function relativeAge(at: number, locale: string): string {
  const seconds = Math.round((at - Date.now()) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  // "0 seconds ago" rather than "now", which reads oddly in "failed (now)".
  return new Intl.RelativeTimeFormat(locale, { numeric: 'always' }).format(
    Math.min(0, seconds),
    'second',
  );
}
