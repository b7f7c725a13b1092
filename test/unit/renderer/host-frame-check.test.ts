/** The browser's hand check of `/ws` frames (no zod in the renderer bundle). */
import { describe, expect, it } from 'vitest';
import { parseHostFrame } from '../../../src/shared/ipc/host-frame-check';

describe('parseHostFrame', () => {
  it('reads results and events, keeping only their fields', () => {
    expect(
      parseHostFrame({ type: 'result', id: 3, result: { ok: true, value: [1] }, extra: 1 }),
    ).toEqual({ type: 'result', id: 3, result: { ok: true, value: [1] } });
    expect(
      parseHostFrame({
        type: 'result',
        id: -1,
        result: { ok: false, error: { code: 'invalid-input', message: 'Bad.', stack: 'x' } },
      }),
    ).toEqual({
      type: 'result',
      id: -1,
      result: { ok: false, error: { code: 'invalid-input', message: 'Bad.' } },
    });
    expect(parseHostFrame({ type: 'event', name: 'turn.event', payload: { a: 1 } })).toEqual({
      type: 'event',
      name: 'turn.event',
      payload: { a: 1 },
    });
  });

  it('drops anything else', () => {
    for (const frame of [
      null,
      'x',
      [],
      { type: 'result', id: '3', result: { ok: true, value: 1 } },
      { type: 'result', id: 3 },
      { type: 'result', id: 3, result: { ok: false, error: { code: 1, message: 'm' } } },
      { type: 'result', id: 3, result: { ok: 'yes' } },
      { type: 'event', name: 7 },
      { type: 'other', id: 1 },
    ]) {
      expect(parseHostFrame(frame), JSON.stringify(frame)).toBeNull();
    }
  });
});
