/**
 * Signing in to MCP services with OAuth: the user's own sign-in (`login`), sign-out, trusting
 * another origin of a local service's host, approving the authorization server a resource moved
 * to, the sign-in state, the sign-in pages shown to the user — and `asUser`, which runs a user's
 * action and signs in when the server asks (never at an authorization server the user has not
 * approved: a move ends the action with the question).
 */
import { AivoryError } from '../../../shared/errors';
import { checkHttpUrl } from '../../../shared/http-url';
import type { McpSignInStatus } from '../../../shared/mcp';
import type { SecretStore } from '../../core/ports';
import { McpError, McpSignInRequired } from '../../core/ports';
import type { McpConnections } from './mcp-connections';
import { bindSignIn, forgetSignIn, signInStatus } from './mcp-oauth-state';
import type { McpServiceConfig } from './mcp-service-config';
import type { McpServiceView } from './mcp-service-view';

/** Longest authorization server address (issuer) the user may approve. */
const ISSUER_MAX_CHARS = 300;

/** A sign-in page opened for the user. */
export interface McpSignInPage {
  serviceId: string;
  serviceName: string;
  url: string;
}

export interface McpSignInsDependencies {
  secrets: SecretStore;
  /** Whether the user can sign in here (a browser, a loopback listener); else asUser runs once. */
  canSignIn: boolean;
  connections: Pick<McpConnections, 'disconnect' | 'signIn'>;
  config: Pick<McpServiceConfig, 'get' | 'update' | 'view'>;
  /** The service's connection test (catalog sync), run by a login to connect. */
  test: (idOrName: string, signal: AbortSignal) => Promise<{ ok: boolean; message: string }>;
}

export class McpSignIns {
  private readonly pageListeners: ((page: McpSignInPage) => void)[] = [];

  constructor(private readonly dependencies: McpSignInsDependencies) {}

  /** Called with each sign-in page shown to the user (the CLI prints it, the app links it). */
  onSignInPage(listener: (page: McpSignInPage) => void): () => void {
    this.pageListeners.push(listener);
    return () => {
      const index = this.pageListeners.indexOf(listener);
      if (index >= 0) this.pageListeners.splice(index, 1);
    };
  }

  /** A sign-in page is being shown: every listener hears it. */
  announce(page: McpSignInPage): void {
    for (const listener of this.pageListeners) listener(page);
  }

  /**
   * Signs in to the service with OAuth (its browser page, then back to a loopback listener) and
   * connects; a server that needs no sign-in just connects. A sign-in made before is replaced;
   * `newClient` also drops the client registration, so a new one is made.
   */
  async login(
    idOrName: string,
    signal: AbortSignal,
    options: { newClient?: boolean } = {},
  ): Promise<{ ok: boolean; message: string }> {
    const { secrets, connections, config } = this.dependencies;
    const service = config.get(idOrName);
    if (service.transport === 'stdio')
      throw new AivoryError(
        'invalid-input',
        `"${service.name}" runs locally: there is no sign-in.`,
      );
    if (options.newClient === true && service.oauth?.clientId != null)
      throw new AivoryError(
        'invalid-input',
        `"${service.name}" signs in with the client ID you entered (${service.oauth.clientId}): there is no registration to make again. Change it with aivory mcp edit.`,
      );
    await connections.disconnect(service.id);
    await forgetSignIn(secrets, service.id, options.newClient === true);
    const result = await this.dependencies.test(service.id, signal);
    if (!result.ok) return result;
    const status = await signInStatus(secrets, service);
    return {
      ok: true,
      message: status?.signedIn
        ? `signed in${status.authServer ? ` at ${status.authServer}` : ''}; ${result.message}`
        : `no sign-in needed; ${result.message}`,
    };
  }

  /**
   * Trusts (or stops trusting) another origin of the service's local host for its sign-in — the
   * user's answer when a sign-in was refused for going there (`refusedSignInOrigin` of the view).
   * Checked like `--trust-auth-server`; the connection is closed so the next one uses it.
   */
  async trustSignInOrigin(
    idOrName: string,
    origin: string,
    trusted: boolean,
  ): Promise<McpServiceView> {
    const { config } = this.dependencies;
    const service = config.get(idOrName);
    if (service.transport === 'stdio')
      throw new AivoryError(
        'invalid-input',
        `"${service.name}" runs locally: there is no sign-in.`,
      );
    const current = service.oauth?.trustedOrigins ?? [];
    const next = trusted
      ? [...current, origin]
      : current.filter((entry) => entry !== origin.trim().replace(/\/$/, ''));
    if (!trusted && next.length === current.length)
      throw new AivoryError(
        'not-found',
        `"${service.name}" does not trust ${JSON.stringify(origin.slice(0, 100))} for its sign-in.`,
      );
    const { service: view } = await config.update(service.id, { trustedOrigins: next });
    return view;
  }

  /**
   * The user's approval of the authorization server (issuer) the service's sign-in may use — the
   * answer to a resource that moved to another one (`movedSignIn` of the view), or an issuer named
   * beforehand: the service is bound to it, the sign-in and registration made with another one are
   * dropped, and the connection is closed so the next one signs in there.
   */
  async approveAuthServer(idOrName: string, issuer: string): Promise<McpServiceView> {
    const { secrets, connections, config } = this.dependencies;
    const service = config.get(idOrName);
    if (service.transport === 'stdio')
      throw new AivoryError(
        'invalid-input',
        `"${service.name}" runs locally: there is no sign-in.`,
      );
    const checked = parseIssuer(issuer);
    await connections.disconnect(service.id);
    await bindSignIn(secrets, service.id, checked);
    return config.view(config.get(service.id));
  }

  /**
   * Signs out: the tokens are deleted and the connection closed. The client registration is kept
   * (a sign-in registers again by itself if the server forgot it) unless `forgetClient`.
   */
  async logout(idOrName: string, options: { forgetClient?: boolean } = {}): Promise<boolean> {
    const { secrets, connections, config } = this.dependencies;
    const service = config.get(idOrName);
    const before = await signInStatus(secrets, service);
    await connections.disconnect(service.id);
    await forgetSignIn(secrets, service.id, options.forgetClient === true);
    return before?.signedIn === true;
  }

  /** The service's OAuth sign-in as shown (null for stdio services). */
  async signInStatus(idOrName: string): Promise<McpSignInStatus | null> {
    return signInStatus(this.dependencies.secrets, this.dependencies.config.get(idOrName));
  }

  /**
   * Runs `action` as the user's own explicit action on the service (a test, a sync, a call from
   * the CLI or the settings page): when the server asks for an OAuth sign-in meanwhile, the user
   * signs in (their browser) and the action runs once more. A second refusal ends it (the retry
   * limit), and so does a resource that moved to another authorization server (SEP-2352): the
   * user approves that server first (`approveAuthServer`), nothing goes there before. Chat turns
   * never run this way: a model's call fails with the message saying how to sign in, and no
   * browser opens.
   */
  async asUser<T>(idOrName: string, signal: AbortSignal, action: () => Promise<T>): Promise<T> {
    const service = this.dependencies.config.get(idOrName);
    let challenge;
    try {
      return await action();
    } catch (error) {
      // Any other failure of the action is its own (a server's error stays a failed request).
      if (!(error instanceof McpSignInRequired) || !this.dependencies.canSignIn) throw error;
      if (error.challenge.movedTo !== undefined) throw signInFailure(service, error);
      challenge = error.challenge;
    }
    // The sign-in's own failures (denied, timed out, no browser) and a second refusal are the
    // user's to read: one line, not "an internal error".
    try {
      await this.dependencies.connections.signIn(service, challenge, signal);
      return await action();
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      throw signInFailure(service, error);
    }
  }
}

/** A sign-in's failure (or a move to approve) as one line the user reads. */
function signInFailure(service: { name: string }, error: McpError): AivoryError {
  return new AivoryError(
    error.kind === 'canceled' ? 'canceled' : 'auth',
    `"${service.name}": ${error.message}`,
    { cause: error },
  );
}

/** An authorization server address (issuer) as the user typed it: http(s), no credentials. */
function parseIssuer(text: string): string {
  const trimmed = text.trim();
  const shown = JSON.stringify(trimmed.slice(0, 100));
  if (trimmed === '')
    throw new AivoryError('invalid-input', 'The authorization server address is empty.');
  if (trimmed.length > ISSUER_MAX_CHARS)
    throw new AivoryError(
      'invalid-input',
      `The authorization server address is longer than ${ISSUER_MAX_CHARS} characters.`,
    );
  const verdict = checkHttpUrl(trimmed);
  if (!verdict.ok)
    throw new AivoryError(
      'invalid-input',
      verdict.problem === 'credentials'
        ? `The authorization server address ${shown} must not carry credentials.`
        : `The authorization server address ${shown} is not an http:// or https:// URL.`,
    );
  if (verdict.url.search !== '' || verdict.url.hash !== '')
    throw new AivoryError(
      'invalid-input',
      `The authorization server address ${shown} must not have a query or fragment (an issuer has none).`,
    );
  return trimmed;
}
