/** The Clock and IdGenerator ports over the real clock and crypto-random UUIDs. */
import { randomUUID } from 'node:crypto';
import type { Clock, IdGenerator } from '../core/ports';

export const systemClock: Clock = { now: () => Date.now() };

export const randomIds: IdGenerator = { next: (prefix) => `${prefix}_${randomUUID()}` };
