/**
 * An MCP tool's `structuredContent`, checked against the `outputSchema` the tool declared (the
 * same bounded Ajv check as untrusted input schemas) and made ready for the trace card. The model
 * reads the result's text as before (the adapter already gives it the JSON when there is no
 * text); a result that breaks its schema, or lacks the structured content its schema promises,
 * gets a note the model and the user both read, because the server's data is then not what it
 * said it would be.
 */
import type { McpCallResult, McpToolInfo } from '../../core/ports';
import type { StructuredToolOutput } from '../../../shared/turn-events';
import { MAX_STRUCTURED_JSON_CHARS } from '../../../shared/turn-events';
import { oneLine } from '../../../shared/untrusted-text';
import { untrustedOutputCheck } from '../../tools/arguments/argument-check';

export interface CheckedStructure {
  /** For the trace card; absent when the result has no structured content. */
  structured?: StructuredToolOutput;
  /** A line for the model's text when something is wrong, else null. */
  note: string | null;
}

/** Longest problem kept for the card and the note. */
const MAX_PROBLEM_CHARS = 300;

export function checkStructured(info: McpToolInfo, result: McpCallResult): CheckedStructure {
  const schema = info.outputSchema;
  if (result.structured === undefined) {
    // An error result need not carry it; a successful one must when the tool declares a schema.
    return schema !== undefined && !result.isError
      ? {
          note: '[structuredContent missing: the tool declares an output schema but returned none]',
        }
      : { note: null };
  }
  const json = indentedJson(result.structured);
  if (schema === undefined) return { structured: { json, check: 'none' }, note: null };
  // An error result's content describes the error; the schema is for successful results.
  if (result.isError) return { structured: { json, check: 'unchecked' }, note: null };
  const verdict = untrustedOutputCheck(schema)(result.structured);
  if (verdict.check !== 'invalid')
    return { structured: { json, check: verdict.check }, note: null };
  const problem = oneLine(verdict.problem, MAX_PROBLEM_CHARS);
  return {
    structured: { json, check: 'invalid', problem },
    note: `[structuredContent does not match the tool's output schema: ${problem}]`,
  };
}

function indentedJson(value: Record<string, unknown>): string {
  const text = JSON.stringify(value, null, 2);
  if (text.length <= MAX_STRUCTURED_JSON_CHARS) return text;
  const cut = text.length - MAX_STRUCTURED_JSON_CHARS;
  return `${text.slice(0, MAX_STRUCTURED_JSON_CHARS)}\n… (${cut.toLocaleString('en-US')} characters cut)`;
}
