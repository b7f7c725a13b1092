/**
 * The pinned lookup answers asynchronously, like a real DNS lookup: a synchronous answer let a
 * connection that fails at once (ENETUNREACH) emit 'error' before http.request had a listener,
 * which killed the whole process on Node 20/22 (issue 11, finding 2). The netns test in
 * test/integration/fetch checks the same path over real sockets.
 */
import { describe, expect, it } from 'vitest';
import { pinnedLookup } from '../../../src/main/adapters/fetch/http-exchange';

type Answer = [Error | null, unknown, number | undefined];

function lookup(options: { all?: boolean; family?: number }, name = 'example.com') {
  const lookupFunction = pinnedLookup('example.com', [
    { address: '45.33.0.10', family: 4 },
    { address: '2a01:4f8:aaaa::10', family: 6 },
  ]);
  const events: string[] = [];
  const answered = new Promise<Answer>((resolve) => {
    lookupFunction(
      name,
      options as never,
      ((error: Error | null, address: unknown, family?: number) => {
        events.push('answered');
        resolve([error, address, family]);
      }) as never,
    );
  });
  events.push('returned');
  return { events, answered };
}

describe('pinnedLookup', () => {
  it('answers after it returned, never synchronously', async () => {
    for (const options of [{ all: true }, { family: 4 }, {}]) {
      const { events, answered } = lookup(options);
      await answered;
      expect(events, JSON.stringify(options)).toEqual(['returned', 'answered']);
    }
    const refused = lookup({}, 'other.example');
    expect((await refused.answered)[0]).toMatchObject({ code: 'ENOTFOUND' });
    expect(refused.events).toEqual(['returned', 'answered']);
  });

  it('answers only with the checked addresses of the checked host', async () => {
    expect(await lookup({ all: true }).answered).toEqual([
      null,
      [
        { address: '45.33.0.10', family: 4 },
        { address: '2a01:4f8:aaaa::10', family: 6 },
      ],
      undefined,
    ]);
    expect(await lookup({ family: 6 }).answered).toEqual([null, '2a01:4f8:aaaa::10', 6]);
    expect(await lookup({}, 'example.com.').answered).toEqual([null, '45.33.0.10', 4]);
  });
});
