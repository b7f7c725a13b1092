/**
 * A model server that streams without end (issue 37, finding 11: a 50 MB answer was held, stored
 * and sent whole): the turn stops reading at `MAX_TURN_OUTPUT_CHARS`, ends the request, keeps
 * what came and says why. Reasoning and native tool-call arguments count too, over all rounds.
 */
import { describe, expect, it } from 'vitest';
import type { LlmChunk, LlmClient } from '../../../src/main/core/ports';
import {
  MAX_TURN_OUTPUT_CHARS,
  outputTooLongError,
} from '../../../src/main/core/orchestrator/stream-round';
import { driveTurn, eventsOfType } from '../../support/turn-harness';

const PIECE = 'abcdefghij'.repeat(1_000);

/** Streams `make(index)` chunks until the caller stops reading; counts what it sent. */
function endlessModel(make: (index: number) => LlmChunk): LlmClient & {
  sent: number;
  ended: boolean;
} {
  const model = {
    sent: 0,
    ended: false,
    async *stream(): AsyncGenerator<LlmChunk> {
      try {
        for (let index = 0; ; index++) {
          model.sent += 1;
          yield make(index);
          await Promise.resolve();
        }
      } finally {
        model.ended = true;
      }
    },
  };
  return model;
}

describe('a turn whose model output never ends', () => {
  it('stops at the bound, ends the request, keeps the text and says why', async () => {
    const model = endlessModel(() => ({ type: 'text', text: PIECE }));
    const run = await driveTurn(model, { toolMode: 'native', tools: [] });
    expect(run.end.stopReason).toBe('error');
    expect(run.end.error?.message).toBe(outputTooLongError().message);
    expect(run.end.error?.message).toContain('2,000,000 characters');
    expect(model.ended).toBe(true);
    expect(run.end.answer.length).toBe(MAX_TURN_OUTPUT_CHARS);
    const streamed = eventsOfType(run.events, 'text-delta').reduce(
      (sum, event) => sum + event.text.length,
      0,
    );
    expect(streamed).toBe(MAX_TURN_OUTPUT_CHARS);
    expect(model.sent).toBe(MAX_TURN_OUTPUT_CHARS / PIECE.length + 1);
  });

  it('counts reasoning and tool-call arguments too', async () => {
    const thinking = endlessModel(() => ({ type: 'reasoning', text: PIECE }));
    const thought = await driveTurn(thinking, { toolMode: 'native', tools: [] });
    expect(thought.end.error?.message).toBe(outputTooLongError().message);
    expect(thinking.ended).toBe(true);

    const calling = endlessModel((index) => ({
      type: 'tool-call-delta',
      index: 0,
      ...(index === 0 ? { id: 'call_1', name: 'python_execute' } : {}),
      argumentsDelta: PIECE,
    }));
    const called = await driveTurn(calling, { toolMode: 'native', tools: [] });
    expect(called.end.error?.message).toBe(outputTooLongError().message);
    expect(calling.ended).toBe(true);
  });

  it('an answer under the bound is untouched', async () => {
    let left = 50;
    const model: LlmClient = {
      async *stream() {
        while (left-- > 0) yield { type: 'text', text: PIECE };
        yield { type: 'finish', reason: 'stop' };
      },
    };
    const run = await driveTurn(model, { toolMode: 'native', tools: [] });
    expect(run.end.stopReason).toBe('completed');
    expect(run.end.answer.length).toBe(50 * PIECE.length);
  });
});
