/**
 * The variables of an MCP config (`${input:id}`, `${env:NAME}`, `${NAME:-default}`,
 * `${userHome}`) filled in for an import plan, noting where each value came from and whether a
 * secret went into it — in a URL or an argument, a secret is kept apart as a placeholder — and
 * `Skip`, an entry the plan leaves out.
 */
import { isSecretName, looksSecret } from '../../policy/secret-mask';
import { mentionsSecretPart, newPartPlaceholder } from './mcp-secret-parts';
import type { McpConfigShape, McpImportInput, McpImportOptions } from './mcp-config-import';

/** An entry the plan leaves out; its message is the reason shown. */
export class Skip extends Error {}

/**
 * `${input:id}` (VS Code), `${env:NAME}` (VS Code, Cursor), `${NAME}` and `${NAME:-default}`
 * (Claude Code), `${userHome}`. Anything else is a variable of another program: skipped.
 */
export class Resolver {
  readonly missing = new Set<string>();
  readonly used = new Set<string>();
  readonly sources: string[] = [];
  misses = 0;
  /** How many secrets were filled in: a password input, or a variable named like a secret. */
  secrets = 0;

  constructor(
    private readonly declared: ReadonlyMap<string, McpImportInput>,
    private readonly options: McpImportOptions,
    /** VS Code has no bare `${NAME}`: there it is one of its own (`${workspaceFolder}`). */
    private readonly shape: McpConfigShape,
  ) {}

  /**
   * `text` with its variables filled in. Given `parts` (a URL or an argument, which the app
   * stores and lists), a secret — a password input, a variable named like a secret, a value that
   * looks like one — goes into `parts` and `text` gets its placeholder `$(secret:N)` instead
   * (`mcp-secret-parts.ts`).
   */
  resolve(text: string, where: string, parts?: string[]): string {
    if (parts !== undefined && mentionsSecretPart(text))
      throw new Skip(`${where} holds "$(secret:", which this app keeps for its own placeholders`);
    const keep = (value: string, secret: boolean): string => {
      if (parts === undefined || !(secret || looksSecret('', value))) return value;
      parts.push(value);
      return newPartPlaceholder(parts.length - 1);
    };
    return text.replace(/\$\{([^}]{1,200})\}/g, (whole, inner: string) => {
      if (inner.startsWith('input:')) {
        const id = inner.slice('input:'.length);
        if (!this.declared.has(id))
          throw new Skip(
            `${where} uses \${input:${id.slice(0, 40)}}, which the file's "inputs" do not declare`,
          );
        this.used.add(id);
        this.sources.push(`input ${id}`);
        if (this.declared.get(id)?.password === true) this.secrets += 1;
        const answer = this.options.inputs?.[id];
        if (answer === undefined) {
          this.missing.add(id);
          this.misses += 1;
          return whole;
        }
        return keep(answer, this.declared.get(id)?.password === true);
      }
      const env = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(inner);
      const home = inner === 'userHome' ? 'HOME' : null;
      const variable = home ?? env?.[1];
      const bare = !inner.startsWith('env:');
      if (
        variable !== undefined &&
        (home !== null || (env !== null && !(bare && this.shape === 'vscode')))
      ) {
        const value = this.options.env[variable] ?? env?.[2];
        if (value === undefined)
          throw new Skip(
            `${where} uses \${${inner.slice(0, 60)}}, but ${variable} is not set in the environment`,
          );
        this.sources.push(`environment ${variable}`);
        if (isSecretName(variable)) this.secrets += 1;
        return keep(value, isSecretName(variable));
      }
      throw new Skip(`${where} uses \${${inner.slice(0, 60)}}, a variable this app cannot fill in`);
    });
  }
}
