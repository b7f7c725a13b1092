/**
 * The scripted model of the answer-parts e2e test, chosen by the user's message: a prompt-mode
 * turn that runs Python (stdout and stderr), an answer that reasons first (held open until the
 * test releases it), and a Markdown answer with a heading, a table and an http image.
 */
import type { RecordedRequest, ScriptedResponse } from '../../support/scripted-llm-server';
import { turnState } from './chat-script';

export const CELL_PROMPT = 'Multiply six by seven in Python';
export const CELL_ANSWER = 'Six times seven is 42.';
export const CELL_CODE = [
  'import sys',
  "print('total', 6 * 7)",
  "print('careful: small numbers', file=sys.stderr)",
].join('\n');

export const REASON_PROMPT = 'Which tea should I drink? Think first';
export const REASON_TEXT = 'Weighing green against black tea.';
export const REASON_ANSWER = 'Green tea.';

export const MARKDOWN_PROMPT = 'Summarise the migration plan';
export const MARKDOWN_ANSWER = [
  '# Migrating the database',
  '',
  'The **complete plan** has `two` steps:',
  '',
  '| Step | Owner |',
  '|:--|--:|',
  '| Export | Ana |',
  '',
  '![Quarterly chart](http://127.0.0.1:9/chart.png)',
].join('\n');
/** What a screen reader hears for MARKDOWN_ANSWER: its text, no markers. */
export const MARKDOWN_SPOKEN = [
  'Migrating the database',
  'The complete plan has two steps:',
  'Step, Owner',
  'Export, Ana',
  'Quarterly chart',
].join('\n');

const CELL_CALL = `<tool_call>${JSON.stringify({
  name: 'python_execute',
  arguments: { code: CELL_CODE },
})}</tool_call>`;

/** Releases the reasoning answer's content (the test calls it once it saw "Thinking…"). */
export let releaseReasoning: () => void = () => undefined;

/** The scripted server's response for one request. */
export function cellsScript(request: RecordedRequest): ScriptedResponse {
  const { text, toolResults } = turnState(request);
  if (text.includes(CELL_PROMPT)) {
    if (toolResults === 0) return { content: `Let me compute.${CELL_CALL}` };
    return { content: CELL_ANSWER };
  }
  if (text.includes(REASON_PROMPT)) {
    const released = new Promise<void>((resolve) => (releaseReasoning = resolve));
    // Chunk 0 is the role, chunk 1 the reasoning (one piece); the answer waits for the test.
    return {
      reasoning: REASON_TEXT,
      content: REASON_ANSWER,
      chunkSize: 200,
      pauseAfterChunks: { count: 2, until: released },
    };
  }
  if (text.includes(MARKDOWN_PROMPT)) return { content: MARKDOWN_ANSWER, chunkSize: 40 };
  return { content: 'Hello from the scripted model.' };
}
