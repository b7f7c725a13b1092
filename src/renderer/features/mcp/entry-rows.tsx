/**
 * Name/value rows of a new MCP service: request headers (HTTP) or environment variables (stdio).
 * Values are typed into password fields: they are secrets and come back only masked.
 */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import type { FieldError } from '../settings/form-controls';
import { FieldErrorText } from '../settings/form-controls';

/** One row. */
export interface Entry {
  name: string;
  value: string;
}

const LABELS = {
  header: {
    title: 'mcp.form.headers',
    name: 'mcp.form.headerName',
    value: 'mcp.form.headerValue',
    add: 'mcp.form.addHeader',
  },
  env: {
    title: 'mcp.form.env',
    name: 'mcp.form.envName',
    value: 'mcp.form.envValue',
    add: 'mcp.form.addEnv',
  },
} as const;

/** The rows with "add" and "remove". */
export function EntryRows(props: {
  kind: 'header' | 'env';
  entries: readonly Entry[];
  error: FieldError;
  onChange(entries: Entry[]): void;
}): ReactNode {
  const t = useT();
  const labels = LABELS[props.kind];
  const { entries } = props;
  const update = (index: number, patch: Partial<Entry>): void =>
    props.onChange(entries.map((entry, at) => (at === index ? { ...entry, ...patch } : entry)));
  return (
    <fieldset className="defaults-picker" data-testid={`mcp-${props.kind}s`}>
      <legend>{t(labels.title)}</legend>
      {entries.map((entry, index) => (
        <div className="entry-row" key={index}>
          <input
            aria-label={t(labels.name)}
            placeholder={props.kind === 'header' ? 'Authorization' : 'API_TOKEN'}
            data-testid={`mcp-${props.kind}-name-${index}`}
            value={entry.name}
            onChange={(event) => update(index, { name: event.target.value })}
          />
          <input
            type="password"
            autoComplete="off"
            aria-label={t(labels.value)}
            data-testid={`mcp-${props.kind}-value-${index}`}
            value={entry.value}
            onChange={(event) => update(index, { value: event.target.value })}
          />
          <button
            type="button"
            className="button ghost danger-text"
            onClick={() => props.onChange(entries.filter((_, at) => at !== index))}
          >
            {t('form.remove')}
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button"
        data-testid={`mcp-${props.kind}-add`}
        onClick={() => props.onChange([...entries, { name: '', value: '' }])}
      >
        ＋ {t(labels.add)}
      </button>
      {entries.length > 0 && <p className="muted">{t('mcp.form.secretHint')}</p>}
      <FieldErrorText error={props.error} testId={`mcp-${props.kind}s-error`} />
    </fieldset>
  );
}
