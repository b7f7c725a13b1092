/**
 * Settings → MCP → Import: paste a config (or choose / drop its file), see what it adds — names,
 * transports, command lines or URLs, env and header values in clear unless secret, loader
 * variables called out and left out unless allowed per server (`mcp-import-plan.tsx`) — and what
 * it leaves out and why, fill in the file's `${input:…}` values, import. The host plans and imports
 * (`mcp.importPlan` / `mcp.import`); each service comes back tested and synced, tools held for
 * review on its card.
 */
import type { DragEvent, ReactNode } from 'react';
import { useRef, useState } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { MAX_MCP_IMPORT_CHARS } from '../../../shared/ipc/limits';
import { ModalDialog } from '../../components/modal-dialog';
import { importMcpServices, planMcpImport } from '../../data/mcp';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { SaveState } from '../settings/form-controls';
import { SaveRow, Switch } from '../settings/form-controls';
import { errorMessage } from '../settings/form-rules';
import type { LoaderAllowances } from './mcp-import-plan';
import { PlanView, withAllowance } from './mcp-import-plan';
import { ReviewList, useReview } from './mcp-review';

type Plan = InvokeResponse<'mcp.importPlan'>;
type Results = InvokeResponse<'mcp.import'>['results'];

/** The dialog; the import (and the review's accept and enable) reload the page's list. */
export function McpImportDialog(props: { onClose(): void }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const [text, setText] = useState('');
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [allowances, setAllowances] = useState<LoaderAllowances>({});
  const [plan, setPlan] = useState<Plan | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [results, setResults] = useState<Results | null>(null);
  const [state, setState] = useState<SaveState>('idle');
  const fileInput = useRef<HTMLInputElement>(null);
  const review = useReview(importedServices(results));
  const filled = Object.fromEntries(Object.entries(answers).filter(([, value]) => value !== ''));

  const check = async (configText = text, allowed = allowances): Promise<void> => {
    if (!bridge) return;
    setResults(null);
    try {
      setPlan(
        await planMcpImport(bridge, { text: configText, inputs: filled, allowLoaderEnv: allowed }),
      );
      setProblem(null);
    } catch (error) {
      setPlan(null);
      setProblem(errorMessage(error));
    }
  };
  const readFile = async (file: File | undefined): Promise<void> => {
    if (!file) return;
    if (file.size > MAX_MCP_IMPORT_CHARS) {
      setProblem(t('mcp.import.tooLarge', { max: MAX_MCP_IMPORT_CHARS / 1024 }));
      return;
    }
    const content = await file.text();
    setText(content);
    setAllowances({});
    await check(content, {});
  };
  const onDrop = (event: DragEvent): void => {
    const file = event.dataTransfer.files[0];
    if (!file) return;
    event.preventDefault();
    void readFile(file);
  };
  const stdio = plan?.entries.some(
    (entry) => entry.transport === 'stdio' && entry.missingInputs.length === 0,
  );
  const run = async (): Promise<void> => {
    if (!bridge) return;
    setState('saving');
    try {
      const answer = await importMcpServices(bridge, {
        text,
        inputs: filled,
        allowLoaderEnv: allowances,
        ...(stdio ? { confirmCommands: true as const } : {}),
      });
      setPlan(answer.plan);
      setResults(answer.results);
      setState('idle');
    } catch (error) {
      setState({ failed: errorMessage(error) });
    }
  };

  return (
    <ModalDialog
      title={t('mcp.import.title')}
      closeLabel={t('mcp.import.close')}
      onClose={props.onClose}
      className="dialog-card mcp-import"
      testId="mcp-import-dialog"
      closeTestId="mcp-import-close"
      footer={
        results === null ? (
          <>
            {stdio && (
              <Switch
                checked={confirmed}
                label={t('mcp.import.confirmCommands')}
                testId="mcp-import-confirm"
                onChange={setConfirmed}
              />
            )}
            <SaveRow
              state={state}
              testId="mcp-import-run"
              label="mcp.import.run"
              disabled={
                plan === null ||
                !plan.entries.some((entry) => entry.missingInputs.length === 0) ||
                (stdio === true && !confirmed)
              }
              onSave={() => void run()}
            >
              <button
                type="button"
                className="button"
                data-testid="mcp-import-cancel"
                onClick={props.onClose}
              >
                {t('mcp.import.cancel')}
              </button>
            </SaveRow>
          </>
        ) : (
          <div className="form-actions">
            <button
              type="button"
              className={
                review.imported.length > 0 && review.state !== 'enabled'
                  ? 'button'
                  : 'button primary'
              }
              data-testid="mcp-import-done"
              onClick={props.onClose}
            >
              {t('mcp.import.done')}
            </button>
            {review.imported.length > 0 && review.state !== 'enabled' && (
              <button
                type="button"
                className="button primary"
                data-testid="mcp-import-enable-all"
                disabled={review.changes === null || review.state === 'working'}
                onClick={() => void review.enableAll()}
              >
                {t('mcp.import.enableAll')}
              </button>
            )}
          </div>
        )
      }
    >
      <p className="muted">{t('mcp.import.hint')}</p>
      <div
        className="mcp-import-source"
        onDragOver={(event) => event.preventDefault()}
        onDrop={onDrop}
      >
        <label className="field">
          <span className="field-label">{t('mcp.import.text')}</span>
          <textarea
            rows={8}
            spellCheck={false}
            value={text}
            data-testid="mcp-import-text"
            onChange={(event) => {
              setText(event.target.value);
              // Allowances are for the servers of the config they were given for.
              setAllowances({});
              setPlan(null);
              setResults(null);
            }}
          />
        </label>
        <div className="form-actions mcp-import-source-actions">
          <input
            ref={fileInput}
            type="file"
            hidden
            accept=".json,application/json"
            data-testid="mcp-import-file"
            onChange={(event) => {
              void readFile(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
          <button
            type="button"
            className="button"
            data-testid="mcp-import-choose"
            onClick={() => fileInput.current?.click()}
          >
            {t('mcp.import.file')}
          </button>
          <span className="muted">{t('mcp.import.drop')}</span>
          <button
            type="button"
            className="button"
            data-testid="mcp-import-check"
            disabled={text.trim() === ''}
            onClick={() => void check()}
          >
            {t('mcp.import.check')}
          </button>
        </div>
      </div>
      {problem !== null && (
        <p className="check-failed" role="alert" data-testid="mcp-import-problem">
          {problem}
        </p>
      )}
      {plan !== null && (
        <PlanView
          plan={plan}
          answers={answers}
          allowances={allowances}
          onAnswer={(id, value) => setAnswers({ ...answers, [id]: value })}
          onAnswered={() => void check()}
          onAllow={(service, variable, allowed) => {
            const next = withAllowance(allowances, service, variable, allowed);
            setAllowances(next);
            void check(text, next);
          }}
        />
      )}
      {results !== null && (
        <section data-testid="mcp-import-results">
          <ul className="mcp-import-list">
            {results.map((result) => (
              <li
                key={result.name}
                className={result.ok ? 'check-ok' : 'check-failed'}
                data-testid="mcp-import-result"
              >
                {result.ok
                  ? result.toolCount === 1
                    ? t('mcp.import.okOne', { name: result.name })
                    : t('mcp.import.ok', { name: result.name, count: result.toolCount })
                  : t('mcp.import.failed', { name: result.name, message: result.message })}
              </li>
            ))}
          </ul>
          <ReviewList review={review} />
        </section>
      )}
    </ModalDialog>
  );
}

/** The services an import added and synced. */
function importedServices(results: Results | null): { id: string; name: string }[] {
  return (results ?? []).flatMap((result) =>
    result.ok && result.id !== null ? [{ id: result.id, name: result.name }] : [],
  );
}
