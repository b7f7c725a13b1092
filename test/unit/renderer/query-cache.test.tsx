/**
 * The renderer's query cache (`src/renderer/data/query-cache.ts`, `use-query.ts`) against an in-memory bridge: one
 * request for one key however many ask, a write's invalidation refetches what is shown, host
 * events invalidate what they announce, a late answer never overwrites a newer value, and a
 * component mounting after another shows the cached value at once. The data modules invalidate
 * after their writes (`saveModel` → every models list; an MCP sync, also a failed one, → the
 * service list), and MCP events reload only the service they name.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import type { AivoryBridge } from '../../../src/renderer/bridge/bridge';
import { deleteModel, listModels, MODELS_KEY } from '../../../src/renderer/data/models';
import { keyMatches, QueryCache, queryCache } from '../../../src/renderer/data/query-cache';
import { useQuery } from '../../../src/renderer/data/use-query';
import { MEMORIES_KEY, listMemories } from '../../../src/renderer/data/library';
import {
  acceptMcpTools,
  listMcpServices,
  listMcpTools,
  mcpDiffKey,
  mcpLibrary,
  mcpLibraryKey,
  MCP_SERVICES_KEY,
  mcpToolsKey,
  setMcpToolApproval,
  syncMcpService,
} from '../../../src/renderer/data/mcp';
import { appStore } from '../../../src/renderer/state/store';

/** A bridge whose answers the test controls, with a way to push host events. */
function fakeHost(answer: (method: string, request: unknown) => Promise<unknown>) {
  const calls: string[] = [];
  const listeners = new Map<string, ((payload: unknown) => void)[]>();
  const bridge: AivoryBridge = {
    host: 'browser',
    invoke: ((method: string, request?: unknown) => {
      calls.push(method);
      return answer(method, request);
    }) as AivoryBridge['invoke'],
    onEvent: ((name: string, listener: (payload: unknown) => void) => {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
      return () => undefined;
    }) as AivoryBridge['onEvent'],
    onConnectionChange: () => () => undefined,
    fileUrl: (path) => path,
  };
  const emit = (name: string, payload: unknown): void => {
    for (const listener of listeners.get(name) ?? []) listener(payload);
  };
  return { bridge, calls, emit };
}

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('renderer data: the query cache', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('matches keys by prefix', () => {
    expect(keyMatches(['mcp', 'library', 's1'], ['mcp'])).toBe(true);
    expect(keyMatches(['mcp', 'library', 's1'], ['mcp', 'library', 's2'])).toBe(false);
    expect(keyMatches(['mcp'], ['mcp', 'list'])).toBe(false);
  });

  it('two readers of one key share one request and see loading, then the answer', async () => {
    const answer = deferred<unknown>();
    const { bridge, calls } = fakeHost(() => answer.promise);
    const cache = new QueryCache(bridge);
    const first = cache.load(MODELS_KEY, listModels);
    const second = cache.load(MODELS_KEY, listModels);
    expect(calls).toEqual(['models.list']);
    expect(cache.get(MODELS_KEY)).toEqual({ data: null, error: null, loading: true });
    answer.resolve({ models: [], environmentModel: null });
    await Promise.all([first, second]);
    expect(cache.get(MODELS_KEY)).toEqual({
      data: { models: [], environmentModel: null },
      error: null,
      loading: false,
    });
  });

  it('keeps the last answer when a request fails, with the error beside it', async () => {
    let fail = false;
    const { bridge } = fakeHost(() =>
      fail ? Promise.reject(new Error('host down')) : Promise.resolve([{ id: 'm' }]),
    );
    const cache = new QueryCache(bridge);
    await cache.load(MEMORIES_KEY, listMemories);
    fail = true;
    await cache.load(MEMORIES_KEY, listMemories);
    const state = cache.get(MEMORIES_KEY);
    expect(state.data).toEqual([{ id: 'm' }]);
    expect((state.error as Error).message).toBe('host down');
    expect(state.loading).toBe(false);
  });

  it('invalidation refetches a key someone shows, and only marks the others stale', async () => {
    let version = 0;
    const { bridge, calls } = fakeHost((method) => Promise.resolve(`${method} ${++version}`));
    const cache = new QueryCache(bridge);
    await cache.load(['prompts'], (b) => b.invoke('prompts.list'));
    await cache.load(['skills'], (b) => b.invoke('skills.list'));
    const changes: unknown[] = [];
    const stop = cache.subscribe(['prompts'], () => changes.push(cache.get(['prompts']).data));
    calls.length = 0;
    await cache.invalidate(['prompts']);
    await cache.invalidate(['skills']);
    expect(calls).toEqual(['prompts.list']);
    expect(cache.get(['prompts']).data).toBe('prompts.list 3');
    expect(changes.at(-1)).toBe('prompts.list 3');
    stop();
  });

  it('an answer that arrives after a newer value (set or refetch) is dropped', async () => {
    const slow = deferred<unknown>();
    let call = 0;
    const { bridge } = fakeHost(() =>
      ++call === 1 ? slow.promise : Promise.resolve({ fresh: true }),
    );
    const cache = new QueryCache(bridge);
    const stop = cache.subscribe(['settings'], () => undefined);
    const first = cache.load(['settings'], (b) => b.invoke('settings.get'));
    // A write answered with the new state while the first read is still out.
    cache.set(['settings'], { written: true });
    slow.resolve({ stale: true });
    await first;
    expect(cache.get(['settings']).data).toEqual({ written: true });
    // And an invalidation during a request asks again rather than keeping the old answer.
    const again = deferred<unknown>();
    call = 10;
    const { bridge: second } = fakeHost(() =>
      ++call === 11 ? again.promise : Promise.resolve({ fresh: true }),
    );
    const other = new QueryCache(second);
    const stopOther = other.subscribe(['settings'], () => undefined);
    const pending = other.load(['settings'], (b) => b.invoke('settings.get'));
    const refetch = other.invalidate(['settings']);
    again.resolve({ stale: true });
    await Promise.all([pending, refetch]);
    expect(other.get(['settings']).data).toEqual({ fresh: true });
    stop();
    stopOther();
  });

  it('a turn that ends invalidates the memories (save_memory may have added one)', async () => {
    let count = 0;
    const { bridge, calls, emit } = fakeHost(() => Promise.resolve(Array(++count).fill({})));
    const cache = queryCache(bridge);
    const stop = cache.subscribe(MEMORIES_KEY, () => undefined);
    await cache.load(MEMORIES_KEY, listMemories);
    calls.length = 0;
    emit('turn.event', { turnId: 't', event: { type: 'text-delta', text: 'x' } });
    expect(calls).toEqual([]);
    emit('turn.event', { turnId: 't', event: { type: 'turn-end' } });
    expect(calls).toEqual(['memories.list']);
    await vi.waitFor(() => expect(cache.get<unknown[]>(MEMORIES_KEY).data).toHaveLength(2));
    stop();
  });

  it('a write in a data module refreshes every list of what it changed', async () => {
    const models = [{ id: 'a' }, { id: 'b' }];
    const { bridge, calls } = fakeHost((method, request) => {
      if (method === 'models.delete') {
        const id = (request as { id: string }).id;
        models.splice(
          models.findIndex((model) => model.id === id),
          1,
        );
        return Promise.resolve({ ok: true });
      }
      return Promise.resolve({ models: [...models], environmentModel: null });
    });
    const cache = queryCache(bridge);
    const stop = cache.subscribe(MODELS_KEY, () => undefined);
    await cache.load(MODELS_KEY, listModels);
    await deleteModel(bridge, 'a');
    expect(calls).toEqual(['models.list', 'models.delete', 'models.list']);
    expect(cache.get(MODELS_KEY).data).toEqual({ models: [{ id: 'b' }], environmentModel: null });
    stop();
  });

  it('useQuery shows a cached value at once to a component that mounts later', async () => {
    const { bridge } = fakeHost(() => Promise.resolve(['first prompt']));
    await queryCache(bridge).load(['prompts'], (b) => b.invoke('prompts.list'));
    const initial = appStore.getInitialState();
    vi.spyOn(appStore, 'getInitialState').mockReturnValue({ ...initial, bridge });
    function Reader(): ReactNode {
      const query = useQuery(['prompts'], (b) => b.invoke('prompts.list'));
      return <p data-loading={query.loading}>{JSON.stringify(query.data)}</p>;
    }
    expect(renderToStaticMarkup(<Reader />)).toBe(
      '<p data-loading="false">[&quot;first prompt&quot;]</p>',
    );
    function Unknown(): ReactNode {
      const query = useQuery(['skills'], (b) => b.invoke('skills.list'));
      return <p>{query.data === null ? 'none yet' : 'some'}</p>;
    }
    expect(renderToStaticMarkup(<Unknown />)).toBe('<p>none yet</p>');
  });
});

describe('renderer data: MCP', () => {
  it('a server event reloads only what it names: changed tools → list and tools, a changed library → that library', async () => {
    const { bridge, calls, emit } = fakeHost((method) =>
      Promise.resolve(method === 'mcp.list' ? { services: [], allowLocalCommands: false } : {}),
    );
    const cache = queryCache(bridge);
    const keys = [MCP_SERVICES_KEY, mcpToolsKey('s1'), mcpLibraryKey('s1'), mcpLibraryKey('s2')];
    const stops = keys.map((key) => cache.subscribe(key, () => undefined));
    await cache.load(MCP_SERVICES_KEY, listMcpServices);
    await cache.load(mcpToolsKey('s1'), (b) => listMcpTools(b, 's1'));
    await cache.load(mcpLibraryKey('s1'), (b) => mcpLibrary(b, 's1'));
    await cache.load(mcpLibraryKey('s2'), (b) => mcpLibrary(b, 's2'));
    calls.length = 0;
    emit('mcp.libraryChanged', { serviceId: 's2' });
    expect(calls).toEqual(['mcp.library']);
    calls.length = 0;
    emit('mcp.stale', { serviceId: 's1', name: 'one' });
    expect(calls.sort()).toEqual(['mcp.list', 'mcp.tools']);
    for (const stop of stops) stop();
  });

  it('a sync puts its diff in and reloads the list and tools; a failed one still reloads the list', async () => {
    let fail = false;
    const changes = [{ tool: 'echo', kind: 'added' }];
    const { bridge, calls } = fakeHost((method) => {
      if (method === 'mcp.sync') {
        return fail
          ? Promise.reject(new Error('Sync of "one" failed: refused'))
          : Promise.resolve({ toolCount: 1, changes, service: {} });
      }
      if (method === 'mcp.accept') return Promise.resolve({});
      return Promise.resolve(method === 'mcp.list' ? { services: [] } : []);
    });
    const cache = queryCache(bridge);
    const stops = [MCP_SERVICES_KEY, mcpToolsKey('s1')].map((key) =>
      cache.subscribe(key, () => undefined),
    );
    await cache.load(MCP_SERVICES_KEY, listMcpServices);
    await cache.load(mcpToolsKey('s1'), (b) => listMcpTools(b, 's1'));
    calls.length = 0;
    await syncMcpService(bridge, 's1');
    expect(calls.sort()).toEqual(['mcp.list', 'mcp.sync', 'mcp.tools']);
    expect(cache.get(mcpDiffKey('s1')).data).toEqual(changes);

    calls.length = 0;
    await acceptMcpTools(bridge, 's1');
    expect(calls.sort()).toEqual(['mcp.accept', 'mcp.list', 'mcp.tools']);
    expect(cache.get(mcpDiffKey('s1')).data).toEqual([]);

    fail = true;
    calls.length = 0;
    await expect(syncMcpService(bridge, 's1')).rejects.toThrow('refused');
    // The host recorded the error on the service: the list shows it.
    expect(calls).toContain('mcp.list');
    expect(cache.get(mcpDiffKey('s1')).data).toEqual([]);
    for (const stop of stops) stop();
  });

  it("an approval's answer replaces the cached tools without asking again", async () => {
    const tools = [{ name: 'echo', approval: 'ask' }];
    const { bridge, calls } = fakeHost((method) =>
      Promise.resolve(method === 'mcp.setApproval' ? tools : []),
    );
    const cache = queryCache(bridge);
    const stop = cache.subscribe(mcpToolsKey('s1'), () => undefined);
    await cache.load(mcpToolsKey('s1'), (b) => listMcpTools(b, 's1'));
    calls.length = 0;
    await setMcpToolApproval(bridge, { id: 's1', tool: 'echo', policy: 'ask' });
    expect(calls).toEqual(['mcp.setApproval']);
    expect(cache.get(mcpToolsKey('s1')).data).toEqual(tools);
    stop();
  });
});
