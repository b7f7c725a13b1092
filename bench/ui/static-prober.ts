/**
 * Requests a static file from `aivory serve` over and over (one at a time, 10 ms apart) and keeps
 * the longest response time: while a conversation loads, a request that waits behind a long
 * synchronous read on the server thread shows up here.
 */

/** A running prober; `stop` ends it and answers the longest request time in ms. */
export interface StaticProber {
  stop(): Promise<{ longestMs: number; requests: number }>;
}

const PAUSE_MS = 10;

/** Starts probing `url` (a static file of serve, e.g. its page). */
export function startStaticProber(url: string): StaticProber {
  let running = true;
  let longestMs = 0;
  let requests = 0;
  const loop = (async () => {
    while (running) {
      const startedAt = performance.now();
      const response = await fetch(url);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`static request answered ${response.status}`);
      longestMs = Math.max(longestMs, performance.now() - startedAt);
      requests += 1;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { longestMs, requests };
    },
  };
}
