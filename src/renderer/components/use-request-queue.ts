/**
 * A queue of requests the main process asks the user about (approvals, a server's questions):
 * each `request` event adds one, each `settled` event (answered elsewhere, timed out, canceled)
 * removes it. The card shows the oldest; answering removes it locally too.
 */
import type { Dispatch, SetStateAction } from 'react';
import { useEffect, useState } from 'react';
import type { EventName, EventPayload } from '../../shared/ipc-contract';
import { useApp } from '../state/store';

export function useRequestQueue<T, R extends EventName, S extends EventName>(
  requestEvent: R,
  settledEvent: S,
  add: (queue: T[], request: EventPayload<R>) => T[],
  remove: (queue: T[], settled: EventPayload<S>) => T[],
): [T[], Dispatch<SetStateAction<T[]>>] {
  const bridge = useApp((state) => state.bridge);
  const [queue, setQueue] = useState<T[]>([]);
  useEffect(() => {
    if (!bridge) return;
    const stopRequests = bridge.onEvent(requestEvent, (request) =>
      setQueue((current) => add(current, request)),
    );
    const stopSettled = bridge.onEvent(settledEvent, (settled) =>
      setQueue((current) => remove(current, settled)),
    );
    return () => {
      stopRequests();
      stopSettled();
    };
  }, [bridge, requestEvent, settledEvent, add, remove]);
  return [queue, setQueue];
}
