import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DAMAGED_WORKSPACE_PREFIX } from '../../../src/shared/sandbox-workspace';
import { appStore } from '../../../src/renderer/state/store';
import { ToolTraceCard } from '../../../src/renderer/features/chat/tool-trace-card';
import { ToolArguments } from '../../../src/renderer/features/chat/tool-arguments';
import type { ToolTrace } from '../../../src/renderer/state/trace-items';

const pythonTrace = (fields: Partial<ToolTrace>): ToolTrace => ({
  toolCallId: 'c1',
  name: 'python_execute',
  arguments: { code: 'import math\nprint(math.pi)' },
  status: 'ok',
  overBudget: false,
  durationMs: 8417,
  output: 'status: ok (812 ms)\nstdout:\n3.14159\n',
  ...fields,
});

describe('renderer: tool arguments as people read them', () => {
  it('a flat object is key/value rows with real line breaks, not an escaped string', () => {
    const html = renderToStaticMarkup(
      <ToolArguments value={{ memory_text: 'line one\nline two', limit: 3 }} />,
    );
    expect(html).toContain('<dt>memory_text</dt>');
    expect(html).toContain('<pre class="argument-text">line one\nline two</pre>');
    expect(html).toContain('<dt>limit</dt><dd><pre class="argument-value">3</pre>');
    expect(html).not.toContain('\\n');
  });

  it('nested values are indented JSON; an unparsed string is parsed when it can be', () => {
    expect(renderToStaticMarkup(<ToolArguments value={{ query: { q: 'tea' } }} />)).toContain(
      '{\n  &quot;query&quot;: {\n    &quot;q&quot;: &quot;tea&quot;\n  }\n}',
    );
    expect(renderToStaticMarkup(<ToolArguments value='{"url":"https://a.example"}' />)).toContain(
      '<dt>url</dt>',
    );
    expect(renderToStaticMarkup(<ToolArguments value="{not json" />)).toContain('{not json');
  });
});

describe('renderer: an MCP tool card with structured content', () => {
  const mcpTrace = (structured: ToolTrace['structured']): ToolTrace => ({
    toolCallId: 'c2',
    name: 'weather__forecast',
    arguments: { city: 'Chicago' },
    status: 'ok',
    overBudget: false,
    durationMs: 120,
    output: '{"temperature":36}',
    ...(structured ? { structured } : {}),
  });

  it('shows the JSON with its check; an invalid one open with the reason, the text in English (zh-CN: budget-and-i18n.test.ts checks every key has one)', () => {
    const valid = renderToStaticMarkup(
      <ToolTraceCard trace={mcpTrace({ json: '{\n  "temperature": 36\n}', check: 'valid' })} />,
    );
    expect(valid).toMatch(/<details class="tool-section tool-structured"[^>]*data-check="valid">/);
    expect(valid).toContain('Matches the tool’s output schema.');
    expect(valid).toContain('data-testid="tool-structured-json">{\n  &quot;temperature&quot;: 36');
    const invalid = mcpTrace({
      json: '{"temperature":"hot"}',
      check: 'invalid',
      problem: '"temperature" must be a number',
    });
    const english = renderToStaticMarkup(<ToolTraceCard trace={invalid} />);
    expect(english).toMatch(/data-check="invalid" open="">/);
    expect(english).toContain(
      'Does not match the tool’s output schema: &quot;temperature&quot; must be a number',
    );
    expect(english).toContain('class="tool-structured-check check-invalid"');
    expect(renderToStaticMarkup(<ToolTraceCard trace={mcpTrace(undefined)} />)).not.toContain(
      'tool-structured',
    );
  });
});

describe('renderer: the python_execute code cell', () => {
  it('done: folded, the code and stdout inside, the duration in seconds, no raw status line', () => {
    const html = renderToStaticMarkup(<ToolTraceCard trace={pythonTrace({})} />);
    // The head is a button saying whether the body shows; folded, the body is hidden.
    expect(html).toMatch(
      /<button type="button" class="tool-trace-head tool-trace-toggle"[^>]* aria-expanded="false"/,
    );
    expect(html).toMatch(
      /<div class="code-cell-fold" id="[^"]+" data-testid="code-cell" hidden="">/,
    );
    expect(html).toContain('data-language="python"');
    expect(html).toContain('import math\nprint(math.pi)');
    expect(html).toContain('data-testid="cell-stdout">3.14159\n</pre>');
    expect(html).toContain('data-testid="tool-duration">8.4 s</span>');
    expect(html).toContain('>Run Python</span>');
    expect(html).not.toContain('status: ok');
    expect(html).not.toContain('&quot;code&quot;');
  });

  it('running and failed: open; a failed call shows its error in the open cell', () => {
    const running = renderToStaticMarkup(
      <ToolTraceCard trace={pythonTrace({ status: 'running', output: null, durationMs: null })} />,
    );
    expect(running).toMatch(/aria-expanded="true"/);
    expect(running).toMatch(/<div class="code-cell-fold" id="[^"]+" data-testid="code-cell">/);
    const failed = renderToStaticMarkup(
      <ToolTraceCard
        trace={pythonTrace({
          status: 'error',
          output:
            'status: error (30 ms)\nstderr:\nTraceback\nZeroDivisionError: division by zero\nerror:\nTraceback\nZeroDivisionError: division by zero',
        })}
      />,
    );
    expect(failed).toMatch(/aria-expanded="true"/);
    expect(failed).toContain('data-testid="cell-error">Traceback\nZeroDivisionError');
    // Open, the error shows once (the folded cell's one-line summary is not repeated).
    expect(failed).not.toContain('cell-error-summary');
    const refused = renderToStaticMarkup(
      <ToolTraceCard
        trace={pythonTrace({ status: 'error', output: 'The sandbox is not available.' })}
      />,
    );
    expect(refused).toContain('data-testid="cell-other">The sandbox is not available.</pre>');
  });
});

describe('renderer: the way out of a workspace whose saves cannot be read', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  /** Server rendering reads the store's initial state: an open conversation and a bridge. */
  const inConversation = (): void => {
    const initial = appStore.getInitialState();
    vi.spyOn(appStore, 'getInitialState').mockReturnValue({
      ...initial,
      activeId: 'conv-1',
      bridge: {
        host: 'browser',
        invoke: () => Promise.reject(new Error('not in this test')),
        onEvent: () => () => undefined,
        onConnectionChange: () => () => undefined,
        fileUrl: () => '',
      },
    });
  };
  const damaged = `${DAMAGED_WORKSPACE_PREFIX} the last save of /workspace could not be read (x)`;

  it('the failed call says what happened and offers to start empty', () => {
    inConversation();
    const html = renderToStaticMarkup(
      <ToolTraceCard trace={pythonTrace({ status: 'error', output: damaged })} />,
    );
    expect(html).toContain('data-testid="cell-other">This conversation');
    expect(html).toContain('data-testid="workspace-reset">Start with an empty workspace</button>');
  });

  it('fetch_image into that conversation offers the same way out', () => {
    inConversation();
    const html = renderToStaticMarkup(
      <ToolTraceCard
        trace={{ ...pythonTrace({ status: 'error', output: damaged }), name: 'fetch_image' }}
      />,
    );
    expect(html).toContain('data-tool-name="fetch_image"');
    expect(html).toContain('data-testid="workspace-reset">Start with an empty workspace</button>');
  });

  it('no button for a program that prints those words, nor for another failure', () => {
    inConversation();
    for (const output of [
      `status: error (5 ms)\nstdout:\n${damaged}\n`,
      'The sandbox is not available.',
    ]) {
      const html = renderToStaticMarkup(
        <ToolTraceCard trace={pythonTrace({ status: 'error', output })} />,
      );
      expect(html, output).not.toContain('workspace-reset');
    }
  });
});

describe('renderer: a finished tool card is one line', () => {
  const trace = (fields: Partial<ToolTrace>): ToolTrace => ({
    toolCallId: 'm1',
    name: 'save_memory',
    arguments: { memory_text: 'green tea' },
    status: 'ok',
    overBudget: false,
    durationMs: 40,
    output: 'Saved to long-term memory',
    ...fields,
  });

  it('done well: folded to its head, the result kept in the document but hidden', () => {
    const html = renderToStaticMarkup(<ToolTraceCard trace={trace({})} />);
    expect(html).toMatch(/class="tool-trace-head tool-trace-toggle"[^>]* aria-expanded="false"/);
    expect(html).toMatch(/data-testid="tool-trace-body" hidden="">/);
    expect(html).toContain('Saved to long-term memory');
  });

  it('running or failed: open', () => {
    for (const status of ['running', 'error'] as const) {
      const html = renderToStaticMarkup(
        <ToolTraceCard
          trace={trace({ status, ...(status === 'running' ? { output: null } : {}) })}
        />,
      );
      expect(html, status).toMatch(/aria-expanded="true"/);
      expect(html, status).not.toContain('hidden=""');
    }
  });
});
