/**
 * Settings → MCP → Import: paste a config (or choose / drop its file), see what it adds — names,
 * transports, command lines or URLs, env and header names with masked values — and what it
 * leaves out and why, fill in the file's `${input:…}` values, import. The host plans and imports
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
import { ReviewList, useReview } from './mcp-review';

type Plan = InvokeResponse<'mcp.importPlan'>;
type Results = InvokeResponse<'mcp.import'>['results'];

/** The dialog; the import (and the review's accept and enable) reload the page's list. */
export function McpImportDialog(props: { onClose(): void }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const [text, setText] = useState('');
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [plan, setPlan] = useState<Plan | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [results, setResults] = useState<Results | null>(null);
  const [state, setState] = useState<SaveState>('idle');
  const fileInput = useRef<HTMLInputElement>(null);
  const review = useReview(importedServices(results));
  const filled = Object.fromEntries(Object.entries(answers).filter(([, value]) => value !== ''));

  const check = async (configText = text): Promise<void> => {
    if (!bridge) return;
    setResults(null);
    try {
      setPlan(await planMcpImport(bridge, { text: configText, inputs: filled }));
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
    await check(content);
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
          onAnswer={(id, value) => setAnswers({ ...answers, [id]: value })}
          onAnswered={() => void check()}
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

/** The plan: what is added (values masked), the file's inputs, what is left out and why. */
function PlanView(props: {
  plan: Plan;
  answers: Record<string, string>;
  onAnswer(id: string, value: string): void;
  onAnswered(): void;
}): ReactNode {
  const t = useT();
  const { plan } = props;
  const ready = plan.entries.filter((entry) => entry.missingInputs.length === 0);
  return (
    <section className="mcp-import-plan" data-testid="mcp-import-plan">
      <h4>
        {plan.shape === 'vscode' ? t('mcp.import.shapeVscode') : t('mcp.import.shapeMcpServers')}
      </h4>
      {plan.inputs.length > 0 && (
        <fieldset className="settings-fieldset">
          <legend>{t('mcp.import.inputs')}</legend>
          {plan.inputs.map((input) => (
            <label key={input.id} className="field">
              <span className="field-label">{input.description}</span>
              {input.options ? (
                <select
                  value={props.answers[input.id] ?? input.default ?? ''}
                  data-testid={`mcp-import-input-${input.id}`}
                  onChange={(event) => props.onAnswer(input.id, event.target.value)}
                  onBlur={props.onAnswered}
                >
                  <option value="" />
                  {input.options.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  type={input.password ? 'password' : 'text'}
                  autoComplete="off"
                  placeholder={input.default ?? ''}
                  value={props.answers[input.id] ?? ''}
                  data-testid={`mcp-import-input-${input.id}`}
                  onChange={(event) => props.onAnswer(input.id, event.target.value)}
                  onBlur={props.onAnswered}
                />
              )}
            </label>
          ))}
        </fieldset>
      )}
      {plan.entries.length === 0 && <p className="notice">{t('mcp.import.nothing')}</p>}
      {plan.entries.length > 0 && <h4>{t('mcp.import.toAdd', { count: ready.length })}</h4>}
      <ul className="mcp-import-list">
        {plan.entries.map((entry) => (
          <li key={entry.name} data-testid="mcp-import-entry">
            <strong>{entry.name}</strong> <span className="muted">{entry.transport}</span>{' '}
            <code>{entry.url ?? [entry.command ?? '', ...entry.args].join(' ')}</code>
            {[
              ...entry.env.map((value) => ({ kind: t('mcp.import.env'), ...value })),
              ...entry.headers.map((value) => ({ kind: t('mcp.import.header'), ...value })),
            ].map((value) => (
              <div
                key={`${value.kind} ${value.name}`}
                className="muted"
                data-testid="mcp-import-value"
              >
                {value.kind} <code>{value.name}</code> = <code>{value.masked}</code> (
                {t('mcp.import.from', { from: value.from })})
              </div>
            ))}
            {entry.missingInputs.length > 0 && (
              <div className="notice">
                {t('mcp.import.needsInput', { inputs: entry.missingInputs.join(', ') })}
              </div>
            )}
            {entry.notes.map((note) => (
              <div key={note} className="muted">
                {t('mcp.import.note', { note })}
              </div>
            ))}
          </li>
        ))}
      </ul>
      {plan.skipped.length > 0 && (
        <>
          <h4>{t('mcp.import.skipped', { count: plan.skipped.length })}</h4>
          <ul className="mcp-import-list">
            {plan.skipped.map((skip) => (
              <li key={skip.name} data-testid="mcp-import-skipped">
                <strong>{skip.name}</strong>: {skip.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** The services an import added and synced. */
function importedServices(results: Results | null): { id: string; name: string }[] {
  return (results ?? []).flatMap((result) =>
    result.ok && result.id !== null ? [{ id: result.id, name: result.name }] : [],
  );
}
