/** The CLI's view of its process: streams, environment, Ctrl-C. Tests pass their own. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Dims text on a terminal; plain elsewhere (pipes, files, NO_COLOR). */
  dim(text: string): string;
  /** Standard error is a terminal: progress lines are drawn there (absent: not one). */
  stderrTerminal?: boolean;
  env: Record<string, string | undefined>;
  /**
   * Ctrl-C, and the signals that mean the same to a running command (`INTERRUPTS`); the listener
   * is told which (an interactive chat quits on SIGTERM and SIGHUP, not on Ctrl-C).
   */
  onInterrupt(listener: (signal: InterruptSignal) => void): void;
  offInterrupt(listener: (signal: InterruptSignal) => void): void;
  /** Asks a question on the terminal; absent when stdin is not a terminal. */
  ask?: (question: string, signal: AbortSignal) => Promise<string>;
  /** Like `ask`, but what is typed is not echoed (a password); absent without a terminal. */
  askHidden?: (question: string, signal: AbortSignal) => Promise<string>;
  /** Opens an http(s) URL in the system browser (an MCP server's URL, after the user's yes). */
  openUrl?: (url: string) => Promise<void>;
  /**
   * Where the interactive chat reads its lines (standard input, a terminal or not) and shows its
   * prompt (standard error); `terminal` when both are terminals (line editing, history). Absent:
   * no interactive chat.
   */
  lineInput?: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; terminal: boolean };
}

/**
 * What stops a running command the way Ctrl-C does: SIGTERM (a service manager, `kill`) and SIGHUP
 * (the terminal closed) too. Without a listener Node ends at once, leaving the sandbox container
 * and the code in it running until the next start; with one, the turn is interrupted and the
 * command closes what it opened before it exits.
 */
const INTERRUPTS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export type InterruptSignal = (typeof INTERRUPTS)[number];

export function processIo(): CliIo {
  // `aivory conversations list | head` closes the pipe early: that is the reader's choice, not an
  // error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    // The terminal was closed (SIGHUP follows): the command is being interrupted and must still
    // get to close its sandbox, so output that can no longer be shown is not a crash.
    if (error.code === 'EIO') return;
    throw error;
  });
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EIO' && error.code !== 'EPIPE') throw error;
  });
  const color = process.stderr.isTTY && !process.env.NO_COLOR;
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    dim: (text) => (color ? `\u001b[2m${text}\u001b[22m` : text),
    stderrTerminal: process.stderr.isTTY,
    env: process.env,
    onInterrupt: (listener) => {
      for (const signal of INTERRUPTS) process.on(signal, listener);
    },
    offInterrupt: (listener) => {
      for (const signal of INTERRUPTS) process.off(signal, listener);
    },
    lineInput: {
      input: process.stdin,
      output: process.stderr,
      terminal: process.stdin.isTTY && process.stderr.isTTY,
    },
    ...(process.stdin.isTTY
      ? { ask: askOnTerminal, askHidden: askHiddenOnTerminal, openUrl: openInBrowser }
      : {}),
  };
}

/** The system opener, without a shell (the URL is one argument, never parsed by one). */
async function openInBrowser(url: string): Promise<void> {
  const { spawn } = await import('node:child_process');
  const [command, ...args] =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['rundll32', 'url.dll,FileProtocolHandler', url]
        : ['xdg-open', url];
  const child = spawn(command ?? 'xdg-open', args, { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

async function askOnTerminal(question: string, signal: AbortSignal): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await terminal.question(question, { signal });
  } finally {
    terminal.close();
  }
}

/**
 * Asks without echoing the answer: readline writes through a stream that goes silent once the
 * question is shown (Node has no built-in hidden prompt).
 */
async function askHiddenOnTerminal(question: string, signal: AbortSignal): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const { Writable } = await import('node:stream');
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const terminal = createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = terminal.question(question, { signal });
    muted = true;
    return await answer;
  } finally {
    terminal.close();
    process.stderr.write('\n');
  }
}
