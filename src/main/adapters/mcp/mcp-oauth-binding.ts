/**
 * The authorization server a service's sign-in is bound to, for mcp-oauth.ts. A resource may name
 * another authorization server at any time (its Protected Resource Metadata, SEP-2352); following
 * it by itself would hand that server whatever the sign-in holds — the client id and secret the
 * user entered (HTTP Basic on a client-credentials token request), a refresh token, a client
 * registration, the user's browser. So the service is bound to one issuer: the one the user
 * approved, else the first one a token was obtained from (older data: the issuer its saved sign-in
 * is stamped with), and a flow that would go elsewhere stops before any request there, saying
 * both issuers and how to approve (`aivory mcp login NAME --auth-server ISSUER`, or the card).
 */
import { McpSignInRequired } from '../../core/ports';
import type { McpAuthChallenge, McpOAuthEndpoint, McpOAuthState } from '../../core/ports';
import { oneLine } from '../../../shared/untrusted-text';
import { sameIssuer } from './mcp-oauth-checks';

/** How much of a server-chosen issuer a message shows. */
const ISSUER_SHOWN_CHARS = 200;

/** The saved state as the binding reads and writes it. */
export interface BindingAccess {
  load(): Promise<McpOAuthState>;
  save(state: McpOAuthState): Promise<void>;
}

/** The issuer the service is bound to now; undefined until the first token (see the port). */
export function boundIssuer(config: McpOAuthEndpoint, state: McpOAuthState): string | undefined {
  if (config.issuer !== undefined) return config.issuer;
  // Saved before the binding was kept: the issuer the sign-in was made with.
  const stamp = state.tokens?.issuer ?? state.client?.issuer;
  return typeof stamp === 'string' && stamp !== '' ? stamp : undefined;
}

/** The binding of one service's OAuth (one per connection, and one per interactive sign-in). */
export class IssuerBinding {
  /** Bound in this process (the first token), before the endpoint is built again. */
  private boundNow: string | undefined;

  constructor(
    private readonly config: McpOAuthEndpoint,
    private readonly access: BindingAccess,
    private readonly server: string,
  ) {}

  async bound(): Promise<string | undefined> {
    return this.boundNow ?? boundIssuer(this.config, await this.access.load());
  }

  /**
   * Lets a flow use the authorization server `named` (checked before any request goes there):
   * throws the move (McpSignInRequired with `movedFrom` / `movedTo`, recorded in the saved
   * state for the card and `aivory mcp list`) when the service is bound to another one; a move
   * recorded earlier is cleared when the resource names the bound issuer again.
   */
  async admit(named: string): Promise<void> {
    const bound = await this.bound();
    const state = await this.access.load();
    if (bound === undefined || sameIssuer(named, bound)) {
      if (state.moved !== undefined) {
        const next = { ...state };
        delete next.moved;
        await this.access.save(next);
      }
      return;
    }
    const moved = {
      from: oneLine(bound, ISSUER_SHOWN_CHARS),
      to: oneLine(named, ISSUER_SHOWN_CHARS),
    };
    if (state.moved?.from !== moved.from || state.moved.to !== moved.to)
      await this.access.save({ ...state, moved });
    throw signInNeeded(
      this.server,
      { stepUp: false, movedFrom: bound, movedTo: named },
      this.config.serviceName,
      this.config.client !== undefined,
    );
  }

  /** A token was obtained from `issuer`: the service is bound to it when it was not yet. */
  async bind(issuer: unknown): Promise<void> {
    if (typeof issuer !== 'string' || issuer === '' || this.config.issuer !== undefined) return;
    if (this.boundNow !== undefined) return;
    this.boundNow = issuer;
    await this.config.bindIssuer(issuer);
  }
}

/** The message of a sign-in the user must make, or approve (a chat turn shows it as is). */
export function signInNeeded(
  server: string,
  challenge: McpAuthChallenge,
  serviceName?: string,
  enteredClient = false,
): McpSignInRequired {
  // The command names the service: a user with several services knows which one to sign in to.
  const name = serviceName === undefined ? '' : ` ${shellWord(serviceName)}`;
  const where = `from the service's card in Settings → MCP or run aivory mcp login${name}`;
  if (challenge.movedTo !== undefined) {
    const to = oneLine(challenge.movedTo, ISSUER_SHOWN_CHARS);
    const from =
      challenge.movedFrom === undefined ? null : oneLine(challenge.movedFrom, ISSUER_SHOWN_CHARS);
    const held = enteredClient
      ? 'your sign-in and the client ID and secret you entered are'
      : 'your sign-in is';
    return new McpSignInRequired(
      `${server} moved its sign-in ${from === null ? '' : `from the authorization server ${from} `}to another one, ${to}; nothing was sent there, since ${held} for ${from ?? 'the old one'}. If ${to} is right, allow it: aivory mcp login${name} --auth-server ${shellWord(to)} (or "Sign in at ${to}" on the service in Settings → MCP)`,
      challenge,
    );
  }
  return new McpSignInRequired(
    challenge.stepUp
      ? `${server} needs more permission than your sign-in grants${challenge.scope ? ` (${oneLine(challenge.scope, 120)})` : ''}; sign in again ${where}`
      : `${server} needs you to sign in (OAuth); sign in ${where}`,
    challenge,
  );
}

/** A word as one shell word (as the CLI's `shellWord` writes it). */
function shellWord(word: string): string {
  const line = oneLine(word, 300);
  if (/^[\w@%+=:,./-]+$/.test(line)) return line;
  return `'${line.replaceAll("'", `'\\''`)}'`;
}
