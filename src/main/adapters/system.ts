/** The Clock and IdGenerator ports over the real clock and crypto-random UUIDs. */
import type { Clock, IdGenerator } from '../core/ports';

export const systemClock: Clock = { now: () => Date.now() };

// node:crypto at first use, not imported: loading it costs every start ~7 ms (issue 24).
export const randomIds: IdGenerator = {
  next: (prefix) => `${prefix}_${process.getBuiltinModule('node:crypto').randomUUID()}`,
};
