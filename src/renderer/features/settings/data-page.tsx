/**
 * 数据: what the user's data is and where it can go. Backups (`backups-section.tsx`). Export every conversation at once (Markdown
 * or JSON, with their files) as a ZIP written by the host and downloaded the way a
 * one-conversation export is; progress as it goes, a cancel that keeps nothing.
 */
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '../../../shared/byte-size';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { cancelExportAll, exportAllConversations } from '../../data/exports';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { BackupsSection } from './backups-section';
import { errorMessage } from './form-rules';

type Exported = InvokeResponse<'exports.all'>;

/** Where the export of every conversation stands. */
type ExportState =
  | { kind: 'idle' }
  | { kind: 'running'; done: number; total: number | null }
  | { kind: 'done'; result: Exported }
  | { kind: 'failed'; message: string };

/** The data page. */
export function DataPage(): ReactNode {
  return (
    <div className="settings-page" data-testid="settings-page-data">
      <ExportAllSection />
      <BackupsSection />
    </div>
  );
}

function ExportAllSection(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const [format, setFormat] = useState<'md' | 'json'>('md');
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(
    () =>
      bridge?.onEvent('exports.progress', ({ done, total }) =>
        setState((current) =>
          current.kind === 'running' ? { kind: 'running', done, total } : current,
        ),
      ),
    [bridge],
  );
  const start = async (): Promise<void> => {
    if (!bridge) return;
    setState({ kind: 'running', done: 0, total: null });
    try {
      const result = await exportAllConversations(bridge, format);
      if (!mounted.current) return;
      setState({ kind: 'done', result });
      download(bridge.fileUrl(result.path, true), result.fileName);
    } catch (error) {
      if (!mounted.current) return;
      const canceled = (error as { code?: unknown }).code === 'canceled';
      setState(canceled ? { kind: 'idle' } : { kind: 'failed', message: errorMessage(error) });
    }
  };
  const running = state.kind === 'running';
  return (
    <section className="settings-block" data-testid="export-all">
      <h3>{t('data.export.title')}</h3>
      <p className="muted">{t('data.export.intro')}</p>
      <div className="data-export-row">
        <select
          data-testid="export-all-format"
          aria-label={t('data.export.format')}
          value={format}
          disabled={running}
          onChange={(event) => setFormat(event.target.value as 'md' | 'json')}
        >
          <option value="md">{t('data.export.markdown')}</option>
          <option value="json">{t('data.export.json')}</option>
        </select>
        {running ? (
          <button
            type="button"
            className="button"
            data-testid="export-all-cancel"
            onClick={() => bridge && void cancelExportAll(bridge)}
          >
            {t('data.export.cancel')}
          </button>
        ) : (
          <button
            type="button"
            className="button primary"
            data-testid="export-all-start"
            onClick={() => void start()}
          >
            {t('data.export.start')}
          </button>
        )}
      </div>
      {state.kind === 'running' && (
        <div className="data-export-progress" data-testid="export-all-progress">
          <progress
            max={state.total ?? undefined}
            value={state.total === null ? undefined : state.done}
            aria-label={t('data.export.title')}
          />
          <span role="status">
            {state.total === null
              ? t('data.export.preparing')
              : t('data.export.progress', { done: state.done, total: state.total })}
          </span>
        </div>
      )}
      {state.kind === 'done' && <ExportResult result={state.result} />}
      {state.kind === 'failed' && (
        <p className="field-error" role="alert" data-testid="export-all-error">
          {state.message}
        </p>
      )}
    </section>
  );
}

/** What was exported, with the archive as a link in case the download did not start. */
function ExportResult(props: { result: Exported }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const { result } = props;
  return (
    <div role="status" data-testid="export-all-done">
      <p>
        {t('data.export.done', {
          conversations: result.conversations,
          files: result.files,
          size: formatBytes(result.bytes),
        })}{' '}
        {bridge && (
          <a href={bridge.fileUrl(result.path, true)} download={result.fileName}>
            {t('data.export.download')}
          </a>
        )}
      </p>
      {result.missingFiles > 0 && (
        <p className="notice">{t('data.export.missing', { count: result.missingFiles })}</p>
      )}
    </div>
  );
}

function download(href: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.click();
}
