/**
 * "Resources" on an MCP service card: the service's resources (listed when the user opens the
 * section, never on page load), one shown at a time as text, and — when the server offers
 * subscriptions — "Watch for changes": the host subscribes on the service's shared session and
 * each `mcp.resourceUpdated` of this watch reads the resource again (one read at a time; an update
 * during a read reads once more after it). The watch ends when the switch goes off, another
 * resource is shown, the section closes or the card leaves the page; the host ends it when the
 * last window leaves and says so (`mcp.watchEnded`) when it cannot be made again after a reconnect.
 * The list is the shared `['mcp', 'library', id]` query (the composer's picker reads it too),
 * asked only while the section is open; `mcp.libraryChanged` reloads it.
 */
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import {
  mcpLibrary,
  mcpLibraryKey,
  readMcpResource,
  unwatchMcpResource,
  watchMcpResource,
} from '../../data/mcp';
import { useQuery } from '../../data/use-query';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { FieldErrorText, Switch } from '../settings/form-controls';
import { errorMessage } from '../settings/form-rules';

/** The shown text is cut here (the CLI or the composer's attachment has it whole). */
const SHOWN_CHARS = 20_000;

export function McpResourcesSection(props: { serviceId: string }): ReactNode {
  const t = useT();
  const { serviceId } = props;
  const [open, setOpen] = useState(false);
  const [uri, setUri] = useState<string | null>(null);
  return (
    <section className="mcp-resources" data-testid="mcp-resources">
      <div className="mcp-resources-head">
        <h4>{t('mcp.resources.title')}</h4>
        <button
          type="button"
          className="button ghost"
          data-testid="mcp-resources-toggle"
          aria-expanded={open}
          onClick={() => {
            setOpen(!open);
            setUri(null);
          }}
        >
          {t(open ? 'mcp.resources.hide' : 'mcp.resources.show')}
        </button>
      </div>
      {open && <ResourceList serviceId={serviceId} uri={uri} onView={setUri} />}
    </section>
  );
}

/** The open section: the resources (the library asked while this is shown), one of them shown. */
function ResourceList(props: {
  serviceId: string;
  uri: string | null;
  onView(uri: string | null): void;
}): ReactNode {
  const t = useT();
  const { serviceId, uri } = props;
  const query = useQuery(mcpLibraryKey(serviceId), (b) => mcpLibrary(b, serviceId), {
    reportErrors: false,
  });
  const library = query.data;
  const error = query.error === null ? null : errorMessage(query.error);
  return (
    <>
      {library === null && error === null && <p className="muted">{t('form.loading')}</p>}
      {library !== null && library.resources.length === 0 && (
        <p className="muted" data-testid="mcp-resources-empty">
          {t('mcp.resources.none')}
        </p>
      )}
      {library !== null && library.resources.length > 0 && (
        <ul className="settings-list mcp-resource-list">
          {library.resources.map((resource) => (
            <li key={resource.uri} data-testid="mcp-resource" data-uri={resource.uri}>
              <span className="mcp-resource-name">
                {resource.name || resource.uri}
                <code>{resource.uri}</code>
              </span>
              <button
                type="button"
                className="button ghost"
                data-testid="mcp-resource-view"
                aria-pressed={uri === resource.uri}
                onClick={() => props.onView(uri === resource.uri ? null : resource.uri)}
              >
                {t(uri === resource.uri ? 'mcp.resources.close' : 'mcp.resources.view')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {uri !== null && library !== null && (
        <ResourceView key={uri} serviceId={serviceId} uri={uri} canWatch={library.subscribe} />
      )}
      <FieldErrorText error={error} testId="mcp-resources-error" />
    </>
  );
}

/** One resource's text, read again on each change while watched. */
function ResourceView(props: { serviceId: string; uri: string; canWatch: boolean }): ReactNode {
  const t = useT();
  const locale = useApp((state) => state.locale);
  const bridge = useApp((state) => state.bridge);
  const { serviceId, uri } = props;
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [watching, setWatching] = useState(false);
  const [watchId, setWatchId] = useState<string | null>(null);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const [updates, setUpdates] = useState(0);
  const reading = useRef<{ running: boolean; again: boolean }>({ running: false, again: false });
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const read = useRef<() => void>(() => undefined);
  read.current = () => {
    if (!bridge) return;
    if (reading.current.running) {
      reading.current.again = true;
      return;
    }
    reading.current.running = true;
    readMcpResource(bridge, serviceId, uri)
      .then(
        (answer) => {
          if (!mounted.current) return;
          setText(answer);
          setError(null);
        },
        (failure: unknown) => {
          if (mounted.current) setError(errorMessage(failure));
        },
      )
      .finally(() => {
        reading.current.running = false;
        if (reading.current.again && mounted.current) {
          reading.current.again = false;
          read.current();
        }
      });
  };
  useEffect(() => read.current(), [serviceId, uri]);
  // The watch: subscribed while the switch is on, ended when it goes off or the view goes.
  useEffect(() => {
    if (!watching || !bridge) return undefined;
    let id: string | null = null;
    let current = true;
    watchMcpResource(bridge, serviceId, uri).then(
      (answer) => {
        if (!current) {
          void unwatchMcpResource(bridge, answer);
          return;
        }
        id = answer;
        setWatchId(answer);
        // What changed between the first read and the subscription.
        read.current();
      },
      (failure: unknown) => {
        if (!current) return;
        setError(errorMessage(failure));
        setWatching(false);
      },
    );
    return () => {
      current = false;
      setWatchId(null);
      if (id !== null) void unwatchMcpResource(bridge, id);
    };
  }, [watching, bridge, serviceId, uri]);
  useEffect(() => {
    if (watchId === null || !bridge) return undefined;
    const offUpdated = bridge.onEvent('mcp.resourceUpdated', (event) => {
      if (event.watchId !== watchId) return;
      setUpdatedAt(Date.now());
      setUpdates((count) => count + 1);
      read.current();
    });
    const offEnded = bridge.onEvent('mcp.watchEnded', (event) => {
      if (event.watchId !== watchId) return;
      setError(t('mcp.resources.watchEnded', { reason: event.reason }));
      setWatching(false);
    });
    return () => {
      offUpdated();
      offEnded();
    };
  }, [watchId, bridge, t]);
  const shown =
    text === null || text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS)}\n…`;
  return (
    <div
      className="mcp-resource-view"
      data-testid="mcp-resource-content"
      data-watching={watchId !== null}
      data-updates={updates}
    >
      {props.canWatch ? (
        <Switch
          checked={watching}
          label={t('mcp.resources.watch')}
          testId="mcp-resource-watch"
          onChange={setWatching}
        />
      ) : (
        <p className="field-hint">{t('mcp.resources.noWatch')}</p>
      )}
      {watchId !== null && (
        <p className="muted" data-testid="mcp-resource-watch-status" aria-live="polite">
          {updatedAt === null
            ? t('mcp.resources.watching')
            : t('mcp.resources.updatedAt', {
                time: new Date(updatedAt).toLocaleTimeString(locale),
              })}
        </p>
      )}
      {shown === null ? (
        <p className="muted">{t('form.loading')}</p>
      ) : (
        <pre className="mcp-resource-text" data-testid="mcp-resource-text">
          {shown === '' ? t('mcp.resources.empty') : shown}
        </pre>
      )}
      <FieldErrorText error={error} testId="mcp-resource-error" />
    </div>
  );
}
