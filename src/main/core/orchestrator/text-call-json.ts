/**
 * Turns the raw text of a tool call written as text (prompt mode, or a native-mode model that
 * printed its call) into a name and arguments, or a parse error to send back to the model.
 */
import type { RawTextCall } from './tool-call-stream-parser';

export type ParsedTextCall =
  { ok: true; name: string; arguments: Record<string, unknown> } | { ok: false; error: string };

/** Longest parse error text sent back to the model; a JSON error is short, this only bounds it. */
const MAX_PARSE_ERROR_CHARS = 300;

export function parseTextCall(call: RawTextCall): ParsedTextCall {
  const body = stripCodeFence(call.body.trim());
  if (call.marker.open === '[TOOL_CALLS]') return parseMistralCall(body);
  return parseCallObject(body);
}

/** `{"name": …, "arguments": …}`; `parameters` is accepted for `arguments`, and a JSON string too. */
function parseCallObject(text: string): ParsedTextCall {
  if (text === '') return { ok: false, error: 'the tool call is empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: describeJsonError(error) };
  }
  if (Array.isArray(value) && value.length > 0) value = value[0];
  return callFromValue(value);
}

function callFromValue(value: unknown): ParsedTextCall {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'expected a JSON object with "name" and "arguments"' };
  }
  const record = Object.fromEntries(Object.entries(value));
  const name = record.name;
  if (typeof name !== 'string' || name.trim() === '') {
    return { ok: false, error: 'the "name" field must be a non-empty string' };
  }
  const parsedArguments = argumentsFrom(record.arguments ?? record.parameters ?? {});
  if (parsedArguments === null) {
    return { ok: false, error: 'the "arguments" field must be a JSON object' };
  }
  return { ok: true, name: name.trim(), arguments: parsedArguments };
}

function argumentsFrom(value: unknown): Record<string, unknown> | null {
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    try {
      return argumentsFrom(JSON.parse(value));
    } catch {
      return null;
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value));
  }
  return null;
}

/** Mistral: `[TOOL_CALLS]name[ARGS]{…}` (v11+) or `[TOOL_CALLS][{"name":…,"arguments":…}]`. */
function parseMistralCall(text: string): ParsedTextCall {
  const argsIndex = text.indexOf('[ARGS]');
  if (argsIndex === -1) return parseCallObject(text);
  const name = text.slice(0, argsIndex).trim();
  const argumentsText = text.slice(argsIndex + '[ARGS]'.length).trim();
  if (name === '') return { ok: false, error: 'the tool name before [ARGS] is empty' };
  try {
    const parsedArguments = argumentsFrom(JSON.parse(argumentsText === '' ? '{}' : argumentsText));
    if (parsedArguments === null) {
      return { ok: false, error: 'the arguments after [ARGS] must be a JSON object' };
    }
    return { ok: true, name, arguments: parsedArguments };
  } catch (error) {
    return { ok: false, error: describeJsonError(error) };
  }
}

function stripCodeFence(text: string): string {
  const match = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/.exec(text);
  return match?.[1]?.trim() ?? text;
}

/** Parses native-mode argument JSON; an empty string means no arguments. */
export function parseNativeArguments(
  argumentsJson: string,
): { ok: true; arguments: Record<string, unknown> } | { ok: false; error: string } {
  if (argumentsJson.trim() === '') return { ok: true, arguments: {} };
  try {
    const parsed = argumentsFrom(JSON.parse(argumentsJson));
    if (parsed === null) return { ok: false, error: 'the arguments must be a JSON object' };
    return { ok: true, arguments: parsed };
  } catch (error) {
    return { ok: false, error: describeJsonError(error) };
  }
}

function describeJsonError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > MAX_PARSE_ERROR_CHARS ? `${text.slice(0, MAX_PARSE_ERROR_CHARS)}…` : text;
}
