/**
 * The sampling card, rendered statically: the third-party service and the model named, the max
 * tokens, the server's system prompt and messages as text (never HTML), Allow once / Always for
 * this server / Deny.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SamplingRequestView } from '../../../src/renderer/features/sampling/sampling-prompt';
import { SamplingCard } from '../../../src/renderer/features/sampling/sampling-prompt';

const REQUEST: SamplingRequestView = {
  samplingId: 'sampling_1',
  turnId: 'turn_1',
  conversationId: 'conv_1',
  service: 'everything',
  model: 'scripted-model',
  systemPrompt: '<i>You are</i> a test server.',
  messages: [{ role: 'user', text: '<b>Say</b> hi' }],
  maxTokens: 100,
};

describe('sampling card', () => {
  it('names the server and the model; shows the server text as text', () => {
    const html = renderToStaticMarkup(
      <SamplingCard request={REQUEST} waiting={1} onAnswer={() => undefined} />,
    );
    expect(html).toContain('“everything” is a third-party MCP server, not Aivory.');
    expect(html).toContain('Model: scripted-model · at most 100 tokens');
    expect(html).toContain('&lt;i&gt;You are&lt;/i&gt; a test server.');
    expect(html).toContain('&lt;b&gt;Say&lt;/b&gt; hi');
    expect(html).not.toContain('<b>Say</b>');
    for (const id of ['sampling-once', 'sampling-always', 'sampling-deny'])
      expect(html).toContain(`data-testid="${id}"`);
    expect(html).toContain('1 more waiting');
  });
});
