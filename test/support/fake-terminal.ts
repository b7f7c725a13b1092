/**
 * A terminal for the CLI's interactive paths (elicitation, sampling, link pages): each question is
 * answered by the next scripted line — or function, for answers that wait — and a question with
 * no script left fails the test. Output, questions and opened links are recorded.
 */
import type { CliIo } from '../../src/main/cli/cli-io';

/** An answer that may wait (for a server's notification, say) or watch the question's signal. */
export type TerminalAnswer = string | ((question: string, signal: AbortSignal) => Promise<string>);

export function fakeTerminal(env: NodeJS.ProcessEnv, answers: TerminalAnswer[]) {
  const out: string[] = [];
  const err: string[] = [];
  const questions: string[] = [];
  const opened: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    dim: (text) => text,
    env,
    onInterrupt: () => undefined,
    offInterrupt: () => undefined,
    ask: (question, signal) => {
      questions.push(question);
      const answer = answers.shift();
      if (answer === undefined) return Promise.reject(new Error(`unexpected question ${question}`));
      return typeof answer === 'string' ? Promise.resolve(answer) : answer(question, signal);
    },
    openUrl: (url) => {
      opened.push(url);
      return Promise.resolve();
    },
  };
  return {
    io,
    questions,
    opened,
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}
