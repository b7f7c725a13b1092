/**
 * A tool call's arguments as people read them: a flat object as key/value rows (a string's line
 * breaks shown as breaks, not `\n`), anything nested as indented JSON, a string the model sent
 * unparsed as itself (or as JSON when it parses).
 */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';

type Scalar = string | number | boolean | null;

/** The arguments view (`data-testid="tool-arguments"`). */
export function ToolArguments(props: { value: unknown }): ReactNode {
  const t = useT();
  const value = parsedIfJson(props.value);
  const rows = flatRows(value);
  if (rows !== null && rows.length === 0) {
    return <p className="tool-arguments muted">{t('cell.noArguments')}</p>;
  }
  if (rows !== null) {
    return (
      <dl className="tool-arguments" data-testid="tool-arguments">
        {rows.map(([key, item]) => (
          <div className="tool-argument" key={key}>
            <dt>{key}</dt>
            <dd>
              <pre className={typeof item === 'string' ? 'argument-text' : 'argument-value'}>
                {typeof item === 'string' ? item : JSON.stringify(item)}
              </pre>
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <pre className="tool-arguments" data-testid="tool-arguments">
      {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** A string holding JSON, parsed; anything else as it is. */
function parsedIfJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The entries of an object whose values are all scalars; null for anything else. */
function flatRows(value: unknown): [string, Scalar][] | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  const scalar = (item: unknown): item is Scalar =>
    item === null || ['string', 'number', 'boolean'].includes(typeof item);
  return entries.every(([, item]) => scalar(item)) ? (entries as [string, Scalar][]) : null;
}
