/**
 * `conversations.around` and `conversations.newer` through the host (contract validation
 * included): a search hit far back opens a bounded window around it, the pages after it lead on
 * to the end with nothing missing or twice, and bad input gets the contract's bounded error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { invokeContract } from '../../../src/shared/ipc-contract';
import type { InvokeMethod } from '../../../src/shared/ipc-contract';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture } from '../../support/host/host-fixture';
import {
  AROUND_BEFORE,
  MESSAGE_PAGE_SIZE,
} from '../../../src/main/host/handlers/conversation-handlers';

const MESSAGES = 1000;

function expectContractResponse(method: InvokeMethod, value: unknown): void {
  const parsed = invokeContract[method].response.safeParse(value);
  expect(parsed.success, `${method}: ${JSON.stringify(parsed.error?.issues ?? [])}`).toBe(true);
}

describe('a window around a message', () => {
  let fixture: HostFixture | null = null;
  afterEach(async () => {
    await fixture?.close();
    fixture = null;
  });

  function seed(host: HostFixture): void {
    const store = host.app.stores.conversations;
    store.createConversation({ id: 'conv_w', title: 'Window', modelId: null });
    for (let index = 0; index < MESSAGES; index += 1) {
      store.createMessage({
        id: `conv_w_${index}`,
        conversationId: 'conv_w',
        role: index % 2 === 0 ? 'user' : 'assistant',
        status: 'complete',
        parts: [{ kind: 'text', text: `message ${index}` }],
      });
    }
  }
  const numbers = (messages: readonly { id: string }[]) =>
    messages.map((message) => Number(message.id.split('_').at(-1)));

  it('reads a bounded window around a message far back, then on to the end', async () => {
    fixture = openHostFixture();
    seed(fixture);
    const around = await fixture.value('conversations.around', {
      id: 'conv_w',
      messageId: 'conv_w_400',
    });
    expectContractResponse('conversations.around', around);
    const first = 400 - AROUND_BEFORE + 1;
    expect(numbers(around.messages)).toEqual(
      Array.from({ length: AROUND_BEFORE + MESSAGE_PAGE_SIZE }, (_, index) => first + index),
    );
    expect(around.older).toBe(`conv_w_${first - 1}`);
    expect(around.newer).toBe(`conv_w_${400 + MESSAGE_PAGE_SIZE}`);
    const read = numbers(around.messages);
    let after = around.newer;
    while (after !== null) {
      const page = await fixture.value('conversations.newer', { id: 'conv_w', after });
      expectContractResponse('conversations.newer', page);
      expect(page.messages.length).toBeLessThanOrEqual(MESSAGE_PAGE_SIZE);
      read.push(...numbers(page.messages));
      after = page.newer;
    }
    expect(read).toEqual(Array.from({ length: MESSAGES - first }, (_, index) => first + index));
    // Near the end: the window reaches it, nothing newer to read.
    const end = await fixture.value('conversations.around', {
      id: 'conv_w',
      messageId: `conv_w_${MESSAGES - 3}`,
    });
    expect(numbers(end.messages).at(-1)).toBe(MESSAGES - 1);
    expect(end.newer).toBeNull();
  });

  it('refuses bad input and a message of another conversation, in bounded words', async () => {
    fixture = openHostFixture();
    seed(fixture);
    fixture.app.stores.conversations.createConversation({
      id: 'conv_x',
      title: 'X',
      modelId: null,
    });
    const tooLong = await fixture.call('conversations.around', {
      id: 'conv_w',
      messageId: 'x'.repeat(10_000),
    });
    expect(tooLong).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    // The page size is the host's: a caller cannot ask for more.
    const extra = await fixture.call('conversations.newer', {
      id: 'conv_w',
      after: 'conv_w_1',
      ...{ limit: 100_000 },
    });
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    const foreign = await fixture.call('conversations.around', {
      id: 'conv_x',
      messageId: 'conv_w_1',
    });
    expect(foreign).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });
});
