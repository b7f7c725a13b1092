/**
 * The `{{variable}}` placeholders of a prompt template: one implementation for the prompts
 * service (`templateVariables`, `fillTemplate`) and the composer (the renderer cannot import
 * services).
 */

/** `{{name}}` or `{{ name }}`: letters (any script), digits, `_`, `.` and `-`. */
const VARIABLE_PATTERN = /\{\{\s*([\p{L}\p{N}_.-]+)\s*\}\}/gu;

/** The distinct placeholder names of `body`, in order of first appearance. */
export function placeholderNames(body: string): string[] {
  const names = new Set<string>();
  for (const match of body.matchAll(VARIABLE_PATTERN)) if (match[1]) names.add(match[1]);
  return [...names];
}

/** Replaces each placeholder that has a value in `values`; the others stay as written. */
export function fillPlaceholders(body: string, values: Readonly<Record<string, string>>): string {
  return body.replace(VARIABLE_PATTERN, (placeholder, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? placeholder) : placeholder,
  );
}
