/**
 * The import dialog's plan: what each server runs, in full — its command line or URL, its env
 * and header values in clear (secrets masked, hidden characters written out) — the loader
 * variables (NODE_OPTIONS, LD_PRELOAD…) called out, each with a box that allows it for that
 * server (unticked, it is left out), the file's `${input:…}` fields, and what is left out and why.
 */
import type { ReactNode } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { revealInvisibleCharacters } from '../../../shared/untrusted-text';
import { useT } from '../../i18n/use-t';

type Plan = InvokeResponse<'mcp.importPlan'>;
type Entry = Plan['entries'][number];
type Value = Entry['env'][number];

/** Loader variables the user allows, by service name (what `mcp.import` takes). */
export type LoaderAllowances = Record<string, string[]>;

/** `allowances` with `variable` of `service` allowed or not. */
export function withAllowance(
  allowances: LoaderAllowances,
  service: string,
  variable: string,
  allowed: boolean,
): LoaderAllowances {
  const others = (allowances[service] ?? []).filter((name) => name !== variable);
  const next = { ...allowances, [service]: allowed ? [...others, variable] : others };
  if (next[service]?.length === 0) delete next[service];
  return next;
}

export function PlanView(props: {
  plan: Plan;
  answers: Record<string, string>;
  allowances: LoaderAllowances;
  onAnswer(id: string, value: string): void;
  onAnswered(): void;
  onAllow(service: string, variable: string, allowed: boolean): void;
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
          <PlanEntry
            key={entry.name}
            entry={entry}
            allowed={props.allowances[entry.name] ?? []}
            onAllow={(variable, allowed) => props.onAllow(entry.name, variable, allowed)}
          />
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

/** One server of the plan: what runs, each value, each loader variable with its box. */
function PlanEntry(props: {
  entry: Entry;
  allowed: readonly string[];
  onAllow(variable: string, allowed: boolean): void;
}): ReactNode {
  const t = useT();
  const { entry } = props;
  const values = [
    ...entry.env.map((value) => ({ kind: t('mcp.import.env'), ...value })),
    ...entry.headers.map((value) => ({ kind: t('mcp.import.header'), ...value })),
  ];
  return (
    <li data-testid="mcp-import-entry">
      <strong>{entry.name}</strong> <span className="muted">{entry.transport}</span>{' '}
      <code data-testid="mcp-import-runs">
        {revealInvisibleCharacters(entry.url ?? [entry.command ?? '', ...entry.args].join(' '))}
      </code>
      {values.map((value) => (
        <div key={`${value.kind} ${value.name}`} data-testid="mcp-import-value">
          <span className="muted">
            {value.kind} <code>{value.name}</code> = <code>{value.shown}</code> (
            {t('mcp.import.from', { from: value.from })}
            {value.secret ? `; ${t('mcp.import.secret')}` : ''})
          </span>
          {value.loader !== null && (
            <LoaderWarning
              service={entry.name}
              value={value}
              allowed={props.allowed.includes(value.name)}
              onAllow={(allowed) => props.onAllow(value.name, allowed)}
            />
          )}
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
  );
}

/** A loader variable: what it does, refused unless its box is ticked. */
function LoaderWarning(props: {
  service: string;
  value: Value;
  allowed: boolean;
  onAllow(allowed: boolean): void;
}): ReactNode {
  const t = useT();
  const { value } = props;
  return (
    <div className="notice mcp-import-loader" role="note" data-testid="mcp-import-loader">
      <p>
        ⚠ {t('mcp.import.loader', { name: value.name, what: value.loader ?? '' })}{' '}
        <strong data-testid="mcp-import-loader-verdict">
          {props.allowed ? t('mcp.import.loaderAllowed') : t('mcp.import.loaderRefused')}
        </strong>
      </p>
      <label className="inline">
        <input
          type="checkbox"
          data-testid={`mcp-import-allow-${value.name}`}
          checked={props.allowed}
          onChange={(event) => props.onAllow(event.target.checked)}
        />
        <span>{t('mcp.import.allowLoader', { name: value.name, service: props.service })}</span>
      </label>
    </div>
  );
}
