/**
 * Name resolution as a port, so tests can answer with their own addresses (and change their
 * answer between calls, as a DNS-rebinding attacker would). The guarded fetcher asks once per
 * hop, judges EVERY address returned, and then connects only to those addresses.
 */
import type { HostResolver } from '../../core/ports';

/** The operating system's resolver (getaddrinfo: hosts file, DNS), all records, in its order. */
export function createSystemResolver(): HostResolver {
  return {
    resolve: async (hostname, signal) => {
      signal.throwIfAborted();
      // node:dns at the first lookup, not imported: most starts resolve no name.
      const { lookup } = process.getBuiltinModule('node:dns/promises');
      // getaddrinfo cannot be cancelled; racing it keeps a hung resolver from outliving the
      // deadline (the lookup finishes in the background and is ignored).
      const answers = await raceWithSignal(lookup(hostname, { all: true, verbatim: true }), signal);
      return answers.map((answer) => ({
        address: answer.address,
        family: answer.family === 6 ? 6 : 4,
      }));
    },
  };
}

/** Settles with `promise`, or rejects with the signal's reason when it aborts first. */
export function raceWithSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
