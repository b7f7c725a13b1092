import type { PreloadIpc } from '../../src/preload/preload-api';

/** A fake ipcRenderer that records invokes and can emit events. */
export function fakeIpc(): PreloadIpc & {
  invoked: unknown[][];
  emit(channel: string, ...args: unknown[]): void;
} {
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const invoked: unknown[][] = [];
  return {
    invoked,
    invoke: (...args) => {
      invoked.push(args);
      return Promise.resolve({ ok: true, value: 'answer' });
    },
    on: (channel, listener) => {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
    },
    removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
    emit: (channel, ...args) => {
      for (const listener of listeners.get(channel) ?? []) listener({ sender: 'ipc' }, ...args);
    },
  };
}
