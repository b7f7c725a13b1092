/**
 * Several async streams read at once, their items yielded in the order they arrive: the answers
 * of several models to one question (`ChatService`, a turn group). Hand-written (about thirty
 * lines) because no dependency of the main process merges async iterators, and the cleanup rule
 * is ours: when the reader stops early or one stream fails, `stop` aborts the others, and each is
 * let run its own `finally` (its answer finished and recorded as canceled) before this returns.
 */
export async function* mergeStreams<T>(
  streams: readonly AsyncGenerator<T, void>[],
  stop: () => void,
): AsyncGenerator<T, void> {
  type Next = { index: number; result: IteratorResult<T, void> };
  const pending = new Map<number, Promise<Next>>();
  const pull = (index: number): void => {
    const next = streams[index]!.next().then((result) => ({ index, result }));
    // Raced below; until then a failure must not count as unhandled.
    next.catch(() => undefined);
    pending.set(index, next);
  };
  streams.forEach((_stream, index) => pull(index));
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      pending.delete(index);
      if (result.done === true) continue;
      yield result.value;
      pull(index);
    }
  } finally {
    if (pending.size > 0) {
      stop();
      await Promise.allSettled(pending.values());
      await Promise.allSettled(streams.map((stream) => stream.return(undefined)));
    }
  }
}
