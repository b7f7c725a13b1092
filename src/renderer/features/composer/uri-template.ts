/**
 * MCP resource templates (RFC 6570): the variables of a template and its expansion with the
 * user's values. Simple `{name}` (percent-encoded) and reserved `{+name}` expressions, with
 * comma-separated names; a template using another operator or a modifier is not offered for
 * filling in (null), rather than expanded wrongly.
 */
const EXPRESSION = /\{([^}]*)\}/g;
const SUPPORTED = /^\+?[A-Za-z0-9_.%]+(,[A-Za-z0-9_.%]+)*$/;

/** The variable names in order of appearance (once each); null when the template is unsupported. */
export function templateVariables(template: string): string[] | null {
  const names: string[] = [];
  for (const match of template.matchAll(EXPRESSION)) {
    const body = match[1] ?? '';
    if (!SUPPORTED.test(body)) return null;
    for (const name of body.replace(/^\+/, '').split(','))
      if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The template with each expression replaced by its values (encoded unless reserved `+`). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_whole, body: string) => {
    const reserved = body.startsWith('+');
    return body
      .replace(/^\+/, '')
      .split(',')
      .map((name) => values[name] ?? '')
      .filter((value) => value !== '')
      .map((value) => (reserved ? encodeURI(value) : encodeURIComponent(value)))
      .join(',');
  });
}
