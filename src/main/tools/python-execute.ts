/**
 * python_execute: runs Python in the conversation's persistent sandbox session. Definition
 * verbatim from the seed (docs/seeds/000_67077f376ad9eee3.txt); checked by a test. Files the code
 * writes under /workspace/outputs are copied to the user's disk and attached to the message.
 */
import { AivoryError } from '../../shared/errors';
import { damagedWorkspaceResult, DamagedWorkspaceError } from '../../shared/sandbox-workspace';
import type { ArtifactReference } from '../../shared/turn-events';
import type { ArtifactSink, PythonSandbox, Tool, ToolContext, ToolOutput } from '../core/ports';
import { builtInArgumentCheck } from './arguments/argument-check';

export const PYTHON_EXECUTE_NAME = 'python_execute';

export const PYTHON_EXECUTE_DESCRIPTION =
  "Run Python in a persistent sandbox for math, data analysis, image editing, plotting, spreadsheet/CSV processing, editing existing PDF/Office documents, and generating downloadable files (PDF/PPTX/DOCX/XLSX/PNG). The session and its /workspace persist across calls AND across turns in this conversation, so call it several times in a row — inspect the inputs first, then edit or compute, and read again differently if the first attempt doesn't fit. Every conversation upload, including the original PDF/DOCX/PPTX/XLSX file, is staged without format conversion in /workspace/uploads/; prior image-generation outputs are staged there too, and public images fetched with fetch_image are stored in /workspace/downloads/. Run `import os; os.listdir('/workspace/uploads')` and inspect /workspace/downloads when needed, then use the real paths (for example python-docx/python-pptx/pypdf for documents, Pillow for images, and pandas for tables). Preserve the original file's layout and formatting when the user asks for a targeted edit. Write outputs, including edited images, plots, and documents, to /workspace/outputs to return them as downloadable artifacts. Produced files are attached to the assistant message automatically: refer to them by filename and never emit sandbox: or /workspace/outputs paths as download links. Stdout/stderr is returned.";

export const PYTHON_EXECUTE_SCHEMA_JSON =
  '{"type":"object","properties":{"code":{"type":"string"}},"required":["code"]}';

/** Longest code accepted; the sidecar refuses more than 1 MiB anyway. */
const MAX_CODE_CHARS = 1_000_000;
/** Per stream, what the model gets back; the rest is cut in the middle with a marker. */
export const MAX_MODEL_STREAM_CHARS = 12_000;
/** Files copied per call; a runaway loop writing thousands of outputs is listed, not copied. */
const MAX_ARTIFACTS_PER_CALL = 20;

const checkArguments = builtInArgumentCheck(PYTHON_EXECUTE_SCHEMA_JSON, {
  properties: { code: { nonBlank: true, maxLength: MAX_CODE_CHARS } },
});

export interface PythonExecuteOptions {
  sandbox: PythonSandbox;
  artifacts: ArtifactSink;
  /** The exec timeout from settings (执行超时, 10–600 s). */
  timeoutSeconds: number;
  /** Conversation used when the tool runs outside one (`aivory tool python_execute`). */
  scratchConversationId: string;
}

export function createPythonExecuteTool(options: PythonExecuteOptions): Tool {
  return {
    name: PYTHON_EXECUTE_NAME,
    description: PYTHON_EXECUTE_DESCRIPTION,
    inputSchema: JSON.parse(PYTHON_EXECUTE_SCHEMA_JSON) as Record<string, unknown>,
    // The sidecar's own timeout fires first; this margin covers session start and file copies.
    timeoutMs: options.timeoutSeconds * 1000 + 120_000,
    validate: checkArguments,
    // Conservatively untrusted: the program may have read downloads, attachments or the network
    // (when allowed), and its output is whatever they made it print.
    untrustedOutput: {},
    execute: (args, context) =>
      run(options, String(Object.fromEntries(Object.entries(args ?? {})).code), context),
  };
}

async function run(
  options: PythonExecuteOptions,
  code: string,
  context: ToolContext,
): Promise<ToolOutput> {
  const conversationId = context.conversationId ?? options.scratchConversationId;
  const { sandbox } = options;
  let sessionId: string;
  let result;
  try {
    sessionId = await sandbox.sessionFor(conversationId, context.signal);
    try {
      result = await sandbox.exec(sessionId, code, options.timeoutSeconds, context.signal);
    } catch (error) {
      // The session was reaped between the two calls: the next one restores the workspace.
      if (!(error instanceof AivoryError && error.code === 'not-found')) throw error;
      sessionId = await sandbox.sessionFor(conversationId, context.signal);
      result = await sandbox.exec(sessionId, code, options.timeoutSeconds, context.signal);
    }
  } catch (error) {
    // No save of the workspace can be read: a result that names the user's way out (a thrown
    // error would reach the model and the user only as the generic "tool failed").
    if (error instanceof DamagedWorkspaceError) {
      return { content: damagedWorkspaceResult(error.detail, conversationId), isError: true };
    }
    // The sandbox cannot be reached or refuses the key: the client's message names the address
    // and what to check, which the generic "tool failed" would hide from the user and the model.
    if (!context.signal.aborted && isSandboxUnavailable(error)) {
      return { content: `${error.message}\n${SANDBOX_UNAVAILABLE_HINT}`, isError: true };
    }
    throw error;
  }
  const artifacts: ArtifactReference[] = [];
  const unsaved: string[] = [];
  for (const output of result.outputs.slice(0, MAX_ARTIFACTS_PER_CALL)) {
    const name = output.path.split('/').pop() ?? output.path;
    // One file that cannot be copied (a strange name, a vanished file) never costs the others.
    try {
      const data = await sandbox.download(sessionId, output.path, context.signal);
      artifacts.push(await options.artifacts.save(conversationId, name, data, output.mime));
    } catch (error) {
      if (context.signal.aborted) throw error;
      context.logger.warn('python_execute: an output file was not saved', {
        file: name.slice(0, 200),
        error: String(error),
      });
      unsaved.push(name);
    }
  }
  return {
    content: describeResult(result, artifacts, result.outputs.length, unsaved),
    isError: result.status !== 'ok',
    artifacts,
  };
}

/** Follows the sandbox client's own message when the sandbox cannot be used at all. */
export const SANDBOX_UNAVAILABLE_HINT =
  'The code did not run. Tell the user the Python sandbox is unavailable; do not retry until they say it is back.';

function isSandboxUnavailable(error: unknown): error is AivoryError {
  return error instanceof AivoryError && (error.code === 'connection' || error.code === 'auth');
}

/** The text the model reads: status, streams (cut in the middle when long), error, files. */
export function describeResult(
  result: Awaited<ReturnType<PythonSandbox['exec']>>,
  artifacts: readonly ArtifactReference[],
  outputCount: number,
  unsaved: readonly string[] = [],
): string {
  const sections = [`status: ${result.status} (${Math.round(result.duration_ms)} ms)`];
  if (result.stdout !== '') sections.push(`stdout:\n${middleCut(result.stdout)}`);
  if (result.stderr !== '') sections.push(`stderr:\n${middleCut(result.stderr)}`);
  if (result.error) sections.push(`error:\n${middleCut(result.error)}`);
  if (result.workspace_notice) {
    sections.push(`note: ${result.workspace_notice}`);
  } else if (result.worker_restarted) {
    sections.push(
      'note: the Python process was restarted; variables and imports from earlier calls are gone, files in /workspace remain.',
    );
  }
  if (artifacts.length > 0) {
    const names = artifacts.map((artifact) => artifact.name).join(', ');
    const more =
      outputCount > artifacts.length + unsaved.length
        ? ` (and ${outputCount - artifacts.length - unsaved.length} more not attached)`
        : '';
    sections.push(
      `files attached to your answer automatically (refer to them by name): ${names}${more}`,
    );
  }
  if (unsaved.length > 0) {
    const names = unsaved.map((name) => JSON.stringify(name.slice(0, 100))).join(', ');
    sections.push(`files that could not be copied to the user (rename them and retry): ${names}`);
  }
  if (result.stdout === '' && result.stderr === '' && !result.error && artifacts.length === 0) {
    sections.push('(no output: print() what you want to see)');
  }
  return sections.join('\n');
}

function middleCut(text: string): string {
  if (text.length <= MAX_MODEL_STREAM_CHARS) return text;
  const half = Math.floor(MAX_MODEL_STREAM_CHARS / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters omitted …]\n${text.slice(-half)}`;
}
