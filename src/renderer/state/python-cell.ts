/**
 * A python_execute call as a code cell: its code (from the arguments) and its result read back
 * into streams. The result is the text the model read (`describeResult` in
 * src/main/tools/python-execute.ts): a `status:` line, then `stdout:`, `stderr:` and `error:`
 * sections, then one-line notes. Pure; a result in any other shape (a refused call, a sandbox
 * that could not start) is kept whole as `other`.
 */

/** What the cell shows below the code. */
export interface PythonCellResult {
  stdout: string | null;
  stderr: string | null;
  error: string | null;
  /** The one-line notes (files attached, a restarted worker, "no output"). */
  notes: string[];
  /** The whole result when it is not in python_execute's shape. */
  other: string | null;
}

/** The tool whose calls show as code cells. */
export const PYTHON_TOOL = 'python_execute';

const STATUS_LINE = /^status: \S+ \(\d+ ms\)$/;
const STREAMS = ['stdout', 'stderr', 'error'] as const;
/** The starts of the one-line sections after the streams, in python-execute.ts's order. */
const NOTE_STARTS = [
  'note: ',
  'files attached to your answer automatically',
  'files that could not be copied to the user',
  '(no output: print() what you want to see)',
];

/** The code of a python_execute call's arguments, or null when there is none to show. */
export function pythonCode(args: unknown): string | null {
  if (typeof args === 'string') {
    try {
      return pythonCode(JSON.parse(args));
    } catch {
      return null;
    }
  }
  if (typeof args !== 'object' || args === null || !('code' in args)) return null;
  return typeof args.code === 'string' ? args.code : null;
}

/** The streams and notes of a python_execute result text. */
export function parsePythonResult(output: string): PythonCellResult {
  const result: PythonCellResult = {
    stdout: null,
    stderr: null,
    error: null,
    notes: [],
    other: null,
  };
  const firstBreak = output.indexOf('\n');
  const statusLine = firstBreak < 0 ? output : output.slice(0, firstBreak);
  if (!STATUS_LINE.test(statusLine)) return { ...result, other: output };
  const lines = firstBreak < 0 ? [] : output.slice(firstBreak + 1).split('\n');
  // The notes are the last lines; a stream never ends the text when a note follows it.
  while (lines.length > 0 && NOTE_STARTS.some((start) => lines.at(-1)?.startsWith(start))) {
    result.notes.unshift(lines.pop() ?? '');
  }
  let rest = lines.join('\n');
  STREAMS.forEach((stream, index) => {
    const head = `${stream}:\n`;
    if (!rest.startsWith(head)) return;
    rest = rest.slice(head.length);
    // The stream runs to the next section head (a program can print such a line itself; the
    // earliest head wins, which is the sandbox's own order).
    let end = rest.length;
    for (const later of STREAMS.slice(index + 1)) {
      const at = rest.indexOf(`\n${later}:\n`);
      if (at >= 0 && at < end) end = at;
    }
    result[stream] = rest.slice(0, end);
    rest = rest.slice(Math.min(end + 1, rest.length));
  });
  if (rest.trim() !== '') result.notes.unshift(rest);
  return result;
}
