/**
 * The scripted model of the files e2e test, chosen by the user's message: a prompt-mode turn that
 * draws a matplotlib chart into /workspace/outputs with python_execute, and a plain answer about
 * an attached CSV.
 */
import type { RecordedRequest, ScriptedResponse } from '../../support/scripted-llm-server';
import { turnState } from './chat-script';

export const PLOT_PROMPT = 'Plot the monthly sales as a bar chart';
export const CSV_PROMPT = 'What is in the attached table?';
export const PLOT_ANSWER = 'Here is the chart, saved as sales.png.';
export const CSV_ANSWER = 'The table lists three cities and their visits.';
export const HELLO_ANSWER = 'Hello from the scripted model.';

const PLOT_CODE = [
  'import matplotlib',
  "matplotlib.use('Agg')",
  'import matplotlib.pyplot as plt',
  'plt.figure(figsize=(5, 3))',
  "plt.bar(['Jan', 'Feb', 'Mar'], [3, 5, 4], color='#3b5bdb')",
  "plt.title('Monthly sales')",
  "plt.savefig('/workspace/outputs/sales.png', dpi=80)",
  "plt.close('all')",
  "print('saved')",
].join('\n');

const PLOT_CALL = `<tool_call>${JSON.stringify({
  name: 'python_execute',
  arguments: { code: PLOT_CODE },
})}</tool_call>`;

/** The scripted server's response for one request. */
export function filesScript(request: RecordedRequest): ScriptedResponse {
  const { text, toolResults } = turnState(request);
  if (text.includes(PLOT_PROMPT)) {
    if (toolResults === 0) return { content: `Let me draw it.${PLOT_CALL}` };
    return {
      content: `${PLOT_ANSWER}\n\n\`\`\`python\nplt.bar(['Jan', 'Feb', 'Mar'], [3, 5, 4])  # the bars\n\`\`\``,
    };
  }
  if (text.includes(CSV_PROMPT)) return { content: CSV_ANSWER };
  return { content: HELLO_ANSWER };
}
