/**
 * The elicitation adapter's pure parts: the capability is declared only when someone answers;
 * a server's request becomes bounded plain fields (hidden characters gone, bad defaults dropped,
 * unsupported shapes refused); an accepted answer is sent only when it passes the form, with
 * the defaults filled in. And the service layer's router: the running call answers, nobody
 * running (or a call that ended) declines or cancels.
 */
import { describe, expect, it } from 'vitest';
import { elicitationCapability } from '../../../../src/main/adapters/mcp/mcp-elicitation';
import {
  normaliseElicitation,
  resultFor,
} from '../../../../src/main/adapters/mcp/mcp-elicitation-request';
import { McpElicitationRouter } from '../../../../src/main/services/mcp/mcp-elicitation-router';
import type { McpElicitationAnswer } from '../../../../src/main/core/ports';

const FORM = {
  message: 'Hello\u202e evil\u0007 \n\n\n\nnext',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Na\u200bme', maxLength: 5 },
      age: { type: 'integer', minimum: 0, maximum: 150, default: 200 },
      pet: { type: 'string', enum: ['a', 'b'], enumNames: ['Cat', 'Dog'], default: 'b' },
      tags: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }] }, default: ['x'] },
    },
    required: ['name'],
  },
};

describe('elicitation in the MCP adapter', () => {
  it('declares elicitation (form with defaults, URL) only when asked', () => {
    expect(elicitationCapability({ elicitation: false })).toEqual({});
    expect(elicitationCapability({ elicitation: true })).toEqual({
      elicitation: { form: { applyDefaults: true }, url: {} },
    });
  });

  it('normalises a form: hidden characters out, bounded, defaults checked', () => {
    const asked = normaliseElicitation(FORM);
    expect(asked.message).toBe('Hello evil \n\nnext');
    expect(asked.fields).toEqual([
      {
        name: 'name',
        title: 'Na me',
        description: '',
        required: true,
        type: 'string',
        maxLength: 5,
      },
      // 200 is above the maximum: not offered as the default.
      {
        name: 'age',
        title: 'age',
        description: '',
        required: false,
        type: 'integer',
        minimum: 0,
        maximum: 150,
      },
      {
        name: 'pet',
        title: 'pet',
        description: '',
        required: false,
        type: 'enum',
        options: [
          { value: 'a', label: 'Cat' },
          { value: 'b', label: 'Dog' },
        ],
        default: 'b',
      },
      {
        name: 'tags',
        title: 'tags',
        description: '',
        required: false,
        type: 'multi-enum',
        options: [{ value: 'x', label: 'X' }],
        default: ['x'],
      },
    ]);
  });

  it('refuses what it cannot show; a URL must be http(s) without credentials', () => {
    const nested = { message: 'm', requestedSchema: { properties: { o: { type: 'object' } } } };
    expect(() => normaliseElicitation(nested)).toThrow(/type the client cannot show/);
    const many = Object.fromEntries(
      Array.from({ length: 51 }, (_, index) => [`f${index}`, { type: 'string' }]),
    );
    expect(() =>
      normaliseElicitation({ message: 'm', requestedSchema: { properties: many } }),
    ).toThrow(/51 fields/);
    const url = (value: string) => normaliseElicitation({ mode: 'url', message: 'm', url: value });
    expect(url('https://example.com/a b').url).toBe('https://example.com/a%20b');
    expect(() => url('javascript:alert(1)')).toThrow(/http and https/);
    expect(() => url('https://user:pw@example.com/')).toThrow(/credentials/);
  });

  it('sends an accepted form only when it passes, with the defaults applied', () => {
    const asked = normaliseElicitation(FORM);
    expect(
      resultFor(asked, { action: 'accept', content: { name: 'Ada', extra: 'dropped' } }),
    ).toEqual({
      action: 'accept',
      content: { name: 'Ada', pet: 'b', tags: ['x'] },
    });
    // Too long, a missing required field, a wrong choice: declined, nothing of it sent.
    expect(resultFor(asked, { action: 'accept', content: { name: 'Adalbert' } })).toEqual({
      action: 'decline',
    });
    expect(resultFor(asked, { action: 'accept', content: {} })).toEqual({ action: 'decline' });
    expect(resultFor(asked, { action: 'accept', content: { name: 'A', pet: 'c' } })).toEqual({
      action: 'decline',
    });
    expect(resultFor(asked, { action: 'cancel' })).toEqual({ action: 'cancel' });
    const page = normaliseElicitation({ mode: 'url', message: 'm', url: 'https://example.com' });
    expect(resultFor(page, { action: 'accept', content: { secret: 'x' } })).toEqual({
      action: 'accept',
    });
  });
});

describe('the elicitation router', () => {
  const service = { id: 's1', name: 'files' };
  const request = normaliseElicitation({ mode: 'url', message: 'm', url: 'https://example.com' });

  it('declines when no call runs or the caller cannot ask; the latest call answers', async () => {
    const router = new McpElicitationRouter();
    const signal = new AbortController().signal;
    expect(await router.route(service, request, signal)).toEqual({ action: 'decline' });
    const leaveQuiet = router.enter('s1', undefined);
    expect(await router.route(service, request, signal)).toEqual({ action: 'decline' });
    const seen: string[] = [];
    const leave = router.enter('s1', (asked) => {
      seen.push(asked.service);
      return Promise.resolve({ action: 'accept', content: {} });
    });
    expect(await router.route(service, request, signal)).toEqual({ action: 'accept', content: {} });
    expect(seen).toEqual(['files']);
    // Another service's calls are not asked.
    expect(await router.route({ id: 's2', name: 'other' }, request, signal)).toEqual({
      action: 'decline',
    });
    leave();
    leaveQuiet();
    expect(router.running('s1')).toBe(0);
  });

  it('cancels the question when the call ends meanwhile', async () => {
    const router = new McpElicitationRouter();
    let asked: (() => void) | undefined;
    const leave = router.enter(
      's1',
      (_request, signal) =>
        new Promise<McpElicitationAnswer>((resolve) => {
          asked = () => undefined;
          signal.addEventListener('abort', () => resolve({ action: 'cancel' }));
        }),
    );
    const answer = router.route(service, request, new AbortController().signal);
    expect(asked).toBeDefined();
    leave();
    expect(await answer).toEqual({ action: 'cancel' });
  });
});
