import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { MAX_ERROR_MESSAGE_CHARS } from '../../../src/main/host/dispatcher';
import type { SenderDescriptor } from '../../../src/main/host/sender';
import { originOf } from '../../../src/main/host/sender';
import { INVOKE_METHODS } from '../../../src/shared/ipc-contract';
import type { turnEventSchema } from '../../../src/shared/ipc/turn-event-schema';
import type { TurnEvent } from '../../../src/shared/turn-events';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture, TRUSTED_SENDER } from '../../support/host/host-fixture';

/** Payloads no method accepts. */
const MALFORMED: unknown[] = [42, 'conversations', [], { unexpected: true }, { id: 7 }];

const FOREIGN_SENDERS: [string, SenderDescriptor][] = [
  ['another origin', { ...TRUSTED_SENDER, origin: 'http://evil.example' }],
  ['a look-alike origin', { ...TRUSTED_SENDER, origin: 'http://127.0.0.1:5217.evil.example' }],
  ['no origin', { ...TRUSTED_SENDER, origin: null }],
  ['a sub-frame', { ...TRUSTED_SENDER, mainFrame: false }],
  ['a socket without the token', { ...TRUSTED_SENDER, authenticated: false }],
];

describe('API dispatcher', () => {
  let fixture: HostFixture;

  beforeEach(() => {
    fixture = openHostFixture();
  });
  afterEach(async () => {
    await fixture.close();
  });

  it('the TurnEvent schema infers exactly the TurnEvent union', () => {
    expectTypeOf<z.infer<typeof turnEventSchema>>().toEqualTypeOf<TurnEvent>();
  });

  it.each(INVOKE_METHODS)(
    '%s rejects malformed payloads with a bounded invalid-input error',
    async (method) => {
      for (const payload of MALFORMED) {
        const result = await fixture.host.dispatch(method, payload, TRUSTED_SENDER);
        expect(result, `${method} ${JSON.stringify(payload)}`).toMatchObject({
          ok: false,
          error: { code: 'invalid-input' },
        });
        if (!result.ok) {
          expect(result.error.message).toContain(`Invalid request for ${method}`);
          expect(result.error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_CHARS);
        }
      }
    },
  );

  it.each(INVOKE_METHODS)('%s refuses every foreign sender before running', async (method) => {
    for (const [label, sender] of FOREIGN_SENDERS) {
      const result = await fixture.host.dispatch(method, {}, sender);
      expect(result, `${method} from ${label}`).toEqual({
        ok: false,
        error: { code: 'forbidden', message: 'This sender may not use the Aivory API.' },
      });
    }
  });

  it('a refused sender changes nothing', async () => {
    const saved = await fixture.value('models.save', {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
    });
    const foreign = { ...TRUSTED_SENDER, origin: 'http://evil.example' };
    await fixture.host.dispatch('models.delete', { id: saved.id }, foreign);
    expect((await fixture.value('models.list')).models.map((model) => model.id)).toEqual([
      saved.id,
    ]);
  });

  it('unknown methods and prototype names are refused', async () => {
    for (const name of ['conversations.drop', 'toString', '__proto__', 'constructor', 12]) {
      const result = await fixture.host.dispatch(name, {}, TRUSTED_SENDER);
      expect(result).toMatchObject({ ok: false, error: { code: 'unknown-method' } });
    }
  });

  it('field-level limits: long titles, non-http URLs, unknown settings fields, huge keys', async () => {
    const cases: [string, unknown][] = [
      ['conversations.rename', { id: 'conv_1', title: 'x'.repeat(201) }],
      ['conversations.rename', { id: 'conv_1', title: '   ' }],
      ['chat.send', { text: 'x'.repeat(100_001) }],
      ['chat.send', { text: '  ' }],
      ['models.save', { baseUrl: 'file:///etc/passwd', model: 'm' }],
      ['models.save', { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', toolMode: 'magic' }],
      ['models.test', { baseUrl: 'javascript:alert(1)' }],
      ['settings.set', { key: 'ui', values: { language: 'fr' } }],
      ['settings.set', { key: 'search', values: { apiKeyRef: 'model:x:api-key' } }],
      ['settings.set', { key: 'secrets', values: {} }],
      ['conversations.search', { query: 'a', limit: 10_000 }],
      ['conversations.get', { id: 'x'.repeat(100_000) }],
    ];
    for (const [method, payload] of cases) {
      const result = await fixture.host.dispatch(method, payload, TRUSTED_SENDER);
      expect(result, method).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
      if (!result.ok) expect(result.error.message.length).toBeLessThanOrEqual(500);
    }
  });

  it('service-level validation errors come back as invalid-input with the field named', async () => {
    const result = await fixture.call('settings.set', {
      key: 'sandbox',
      values: { execTimeoutSeconds: 5 },
    });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'invalid-input',
        message: expect.stringContaining('sandbox.execTimeoutSeconds'),
      },
    });
  });

  it('originOf compares scheme, host and port only', () => {
    expect(originOf('app://aivory/index.html#/chat')).toBe('app://aivory');
    expect(originOf('http://127.0.0.1:5217/?token=x')).toBe('http://127.0.0.1:5217');
    expect(originOf('HTTP://LOCALHOST:80/')).toBe('http://localhost');
    expect(originOf('file:///etc/passwd')).toBeNull();
    expect(originOf('not a url')).toBeNull();
  });
});
