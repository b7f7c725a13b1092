/**
 * The server's model list after a connection check, visible (not hidden in a datalist): a search
 * box (every word must appear, any case), the matching ids as buttons with the capabilities the
 * provider states (vision, tools, reasoning), and the chosen one marked. Long lists (OpenRouter's
 * hundreds) show the first `MAX_SHOWN` matches. The model name field beside it stays editable, so
 * a server that lists nothing, or not the wanted model, still works.
 */
import type { ReactNode } from 'react';
import { useMemo, useState } from 'react';
import type { ListedModel } from '../../../shared/provider-presets';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { useT } from '../../i18n/use-t';

type Check = InvokeResponse<'models.test'>;

/** How many matching ids are rendered at once. */
export const MAX_SHOWN = 200;

/** The ids matching every word of `query` (case-insensitive), in server order. */
export function filterModels(models: readonly string[], query: string): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...models];
  return models.filter((id) => {
    const lower = id.toLowerCase();
    return words.every((word) => lower.includes(word));
  });
}

/** What the provider states about `id`, or null. */
export function capabilitiesOf(check: Check | null, id: string): ListedModel | null {
  return check?.capabilities.find((entry) => entry.id === id) ?? null;
}

/** The list of a successful check; `onPick` gets the id and what the provider states about it. */
export function ServerModels(props: {
  check: Check;
  value: string;
  testId: string;
  onPick(id: string, capabilities: ListedModel | null): void;
}): ReactNode {
  const t = useT();
  const [query, setQuery] = useState('');
  const { check } = props;
  const matches = useMemo(() => filterModels(check.models, query), [check.models, query]);
  const byId = useMemo(
    () => new Map(check.capabilities.map((entry) => [entry.id, entry])),
    [check.capabilities],
  );
  if (check.models.length === 0) {
    return (
      <p className="muted" data-testid={`${props.testId}-empty`}>
        {t('models.listedNone')}
      </p>
    );
  }
  const shown = matches.slice(0, MAX_SHOWN);
  return (
    <div className="server-models" data-testid={props.testId}>
      <p className="muted">{t('models.listed')}</p>
      <input
        type="search"
        className="server-models-search"
        data-testid={`${props.testId}-search`}
        placeholder={t('models.search')}
        aria-label={t('models.search')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <p className="muted" data-testid={`${props.testId}-count`}>
        {matches.length === 0
          ? t('models.noMatch', { query })
          : matches.length > MAX_SHOWN
            ? t('models.listedMore', { shown: MAX_SHOWN, count: matches.length })
            : query.trim() !== ''
              ? t('models.listedMatch', { shown: matches.length, count: check.models.length })
              : ''}
      </p>
      <ul className="server-models-list" role="listbox" aria-label={t('models.search')}>
        {shown.map((id) => {
          const capabilities = byId.get(id) ?? null;
          return (
            <li key={id} role="option" aria-selected={id === props.value}>
              <button
                type="button"
                className={`server-model${id === props.value ? ' selected' : ''}`}
                data-testid={`${props.testId}-option`}
                data-model-id={id}
                onClick={() => props.onPick(id, capabilities)}
              >
                <span className="server-model-id">{id}</span>
                <CapabilityTags capabilities={capabilities} />
              </button>
            </li>
          );
        })}
      </ul>
      {check.truncated && <p className="muted">{t('models.truncated')}</p>}
    </div>
  );
}

/** The stated capabilities as small tags. */
export function CapabilityTags(props: { capabilities: ListedModel | null }): ReactNode {
  const t = useT();
  const stated = props.capabilities;
  if (stated === null) return null;
  return (
    <>
      {stated.vision === true && <span className="cap-tag">{t('models.cap.vision')}</span>}
      {stated.tools === true && <span className="cap-tag">{t('models.cap.tools')}</span>}
      {stated.tools === false && <span className="cap-tag muted">{t('models.cap.noTools')}</span>}
      {stated.reasoning === true && <span className="cap-tag">{t('models.cap.reasoning')}</span>}
    </>
  );
}
