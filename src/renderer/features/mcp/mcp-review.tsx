/**
 * One review of newly added services' tools and one action to accept them all and switch the
 * services on: after an import (the CLI's `import --enable`) and after adding one service. The
 * writes reload the service list (the cards behind the dialog follow).
 */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { McpToolChanges } from '../../data/mcp';
import {
  acceptMcpTools,
  mcpToolChanges,
  setMcpServiceEnabled,
  syncMcpService,
  testMcpService,
} from '../../data/mcp';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { errorMessage } from '../settings/form-rules';
import { McpDiffView } from './mcp-diff-view';

type Changes = McpToolChanges;

/**
 * After an import: one review of every imported service's tools (each one's sync diff) and one
 * action to accept them all and switch the services on — the CLI's `import --enable`. Or Done,
 * and each service waits on its card.
 */
export interface Review {
  imported: { id: string; name: string }[];
  /** Each service's diff by id; null while they load. */
  changes: Record<string, Changes> | null;
  state: 'idle' | 'working' | 'enabled' | { failed: string };
  enableAll(): Promise<void>;
}

export function useReview(imported: { id: string; name: string }[]): Review {
  const bridge = useApp((state) => state.bridge);
  const [changes, setChanges] = useState<Record<string, Changes> | null>(null);
  const [state, setState] = useState<Review['state']>('idle');
  const ids = imported.map((service) => service.id).join(' ');
  useEffect(() => {
    setChanges(null);
    setState('idle');
    if (!bridge || ids === '') return;
    let live = true;
    const list = ids.split(' ');
    void Promise.all(list.map((id) => mcpToolChanges(bridge, id)))
      .then((diffs) => {
        if (live) setChanges(Object.fromEntries(list.map((id, index) => [id, diffs[index] ?? []])));
      })
      .catch((error: unknown) => {
        if (live) setState({ failed: errorMessage(error) });
      });
    return () => {
      live = false;
    };
  }, [bridge, ids]);
  const enableAll = async (): Promise<void> => {
    if (!bridge) return;
    setState('working');
    try {
      for (const service of imported) {
        await acceptMcpTools(bridge, service.id);
        await setMcpServiceEnabled(bridge, service.id, true);
      }
      setState('enabled');
    } catch (error) {
      setState({ failed: errorMessage(error) });
    }
  };
  return { imported, changes, state, enableAll };
}

/** The imported services' tools, folded under each name (or what was enabled). */
export function ReviewList(props: { review: Review }): ReactNode {
  const t = useT();
  const { imported, changes, state } = props.review;
  if (imported.length === 0) return null;
  if (state === 'enabled') {
    return (
      <p className="check-ok" role="status" data-testid="mcp-import-enabled">
        {t('mcp.import.enabled', { names: imported.map((service) => service.name).join(', ') })}
      </p>
    );
  }
  return (
    <div className="mcp-import-review" data-testid="mcp-import-review">
      <p className="muted">{t('mcp.import.reviewHint')}</p>
      {imported.map((service) => (
        <details key={service.id} className="mcp-import-review-service">
          <summary>
            <strong>{service.name}</strong>{' '}
            <span className="muted">
              {t('mcp.import.reviewCount', { count: changes?.[service.id]?.length ?? '…' })}
            </span>
          </summary>
          <McpDiffView changes={changes?.[service.id] ?? []} />
        </details>
      ))}
      {typeof state === 'object' && (
        <p className="check-failed" role="alert">
          {state.failed}
        </p>
      )}
    </div>
  );
}

/**
 * Right after a service is added: it is tested and synced at once, its tools shown, and one click
 * accepts them and switches it on — from a URL or command to an enabled service in one place.
 * A test that fails (a server that needs a sign-in, one that does not answer) says why; the
 * service's card then offers the next step.
 */
export function McpAddedReview(props: {
  service: { id: string; name: string };
  onDone(): void;
}): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const { id, name } = props.service;
  const [step, setStep] = useState<'connecting' | 'review' | { failed: string }>('connecting');
  const services = step === 'review' ? [{ id, name }] : [];
  const review = useReview(services);
  useEffect(() => {
    if (!bridge) return;
    let live = true;
    const connect = async (): Promise<void> => {
      try {
        const tested = await testMcpService(bridge, id);
        if (!tested.ok) {
          if (live) setStep({ failed: tested.message });
          return;
        }
        await syncMcpService(bridge, id);
        if (live) setStep('review');
      } catch (error) {
        if (live) setStep({ failed: errorMessage(error) });
      }
    };
    void connect();
    return () => {
      live = false;
    };
  }, [bridge, id]);
  const enabled = review.state === 'enabled';
  return (
    <div className="editor mcp-added" data-testid="mcp-added">
      <h3>{t('mcp.added.title', { name })}</h3>
      {step === 'connecting' && (
        <p className="muted" role="status" data-testid="mcp-added-connecting">
          {t('mcp.added.connecting')}
        </p>
      )}
      {typeof step === 'object' && (
        <p className="check-failed" role="alert" data-testid="mcp-added-failed">
          {t('mcp.added.failed', { message: step.failed })}
        </p>
      )}
      {step === 'review' && <ReviewList review={review} />}
      <div className="form-actions">
        <button
          type="button"
          className={step === 'review' && !enabled ? 'button' : 'button primary'}
          data-testid="mcp-added-done"
          onClick={props.onDone}
        >
          {t(step === 'review' && !enabled ? 'mcp.added.later' : 'mcp.import.done')}
        </button>
        {step === 'review' && !enabled && (
          <button
            type="button"
            className="button primary"
            data-testid="mcp-added-enable"
            disabled={review.changes === null || review.state === 'working'}
            onClick={() => void review.enableAll()}
          >
            {t('mcp.import.enableAll')}
          </button>
        )}
      </div>
    </div>
  );
}
