/**
 * The user's configuration of their MCP services: add (header and env values into the
 * SecretStore), update, remove, enable / disable, a tool's approval policy, and the services as
 * listed (`mcp-service-view.ts`). Every edit closes the service's session; what it needs of the
 * connections is handed in.
 */
import { originOf } from '../../../shared/url-origin';
import { AivoryError } from '../../../shared/errors';
import type { McpApprovalPolicy, McpService } from '../../../shared/mcp';
import type { Clock, IdGenerator, McpStore, NewMcpService, SecretStore } from '../../core/ports';
import type { McpConnections } from './mcp-connections';
import { forgetSignIn, issuerRef, oauthStateRef } from './mcp-oauth-state';
import { liftLiteralSecrets, servicePartRefs, storeSecretParts } from './mcp-secret-parts';
import { allowedLoaderEnv, parseServiceInput, withLoaderAllowance } from './mcp-service-input';
import type { McpServiceInput, ParsedOAuthInput, ParsedServiceInput } from './mcp-service-input';
import { viewService } from './mcp-service-view';
import type { McpServiceView } from './mcp-service-view';

export interface McpServiceConfigDependencies {
  store: McpStore;
  secrets: SecretStore;
  clock: Clock;
  ids: IdGenerator;
  /** The "allow local command servers" setting (stdio). */
  allowLocalCommands: () => boolean;
  /** Closing a changed service's session; the sign-in origins refused lately, by service. */
  connections: Pick<McpConnections, 'disconnect' | 'refusedOrigins'>;
}

export class McpServiceConfig {
  constructor(private readonly dependencies: McpServiceConfigDependencies) {}

  async list(): Promise<McpServiceView[]> {
    return Promise.all(this.dependencies.store.listServices().map((service) => this.view(service)));
  }

  /** The service by id or name; throws `not-found`. */
  get(idOrName: string): McpService {
    const service = this.dependencies.store.getService(idOrName);
    if (!service) throw new AivoryError('not-found', `No MCP service named "${idOrName}".`);
    return service;
  }

  /** The service as listed (masked values, sign-in, counts). */
  view(service: McpService): Promise<McpServiceView> {
    const { store, secrets, connections } = this.dependencies;
    return viewService(service, { store, secrets, refusedOrigins: connections.refusedOrigins });
  }

  async add(input: McpServiceInput): Promise<{ service: McpServiceView; notice: string | null }> {
    const { store, ids } = this.dependencies;
    const parsed = parseServiceInput(input, this.dependencies.allowLocalCommands());
    const id = ids.next('mcp');
    const parts = [...(input.secretParts ?? [])];
    parsed.args = liftLiteralSecrets(parsed.args, parts);
    await storeSecretParts(parsed, parts, {
      serviceId: id,
      stamp: this.dependencies.clock.now().toString(36),
      secrets: this.dependencies.secrets,
    });
    const service = store.createService({
      id,
      ...configOf(
        parsed,
        await this.saveSecrets(id, 'header', parsed.headers),
        withLoaderAllowance(await this.saveSecrets(id, 'env', parsed.env), parsed.loaderEnv),
        withTrust(await this.saveOAuth(id, parsed.oauth), parsed.trustedOrigins),
      ),
    });
    return { service: await this.view(service), notice: parsed.notice };
  }

  /**
   * Changes a service: only the fields given. Headers / env given replace the old ones (their
   * secrets are deleted); absent, they are kept — except when the URL moves to another origin and
   * no new headers are given: the saved headers (keys, tokens) are dropped — they were meant for
   * the old server — unless `keepHeaders` says to send them to the new one. Every edit closes the
   * service's session; a changed address, transport or command also makes it untested again;
   * snapshots and approvals stay.
   */
  async update(
    idOrName: string,
    changes: Partial<McpServiceInput> & { keepHeaders?: boolean },
  ): Promise<{ service: McpServiceView; notice: string | null }> {
    const { store, secrets, connections } = this.dependencies;
    const current = this.get(idOrName);
    const parsed = parseServiceInput(
      {
        name: changes.name ?? current.name,
        icon: changes.icon ?? current.icon,
        description: changes.description ?? current.description,
        transport: changes.transport ?? current.transport,
        ...((changes.url ?? current.url) ? { url: changes.url ?? current.url ?? '' } : {}),
        ...((changes.command ?? current.command)
          ? { command: changes.command ?? current.command ?? '' }
          : {}),
        args: changes.args ?? current.args,
        headers: changes.headers ?? [],
        env: changes.env ?? [],
        // Given without new env, the allowance is for the saved variables (below).
        ...(changes.env !== undefined && changes.allowLoaderEnv !== undefined
          ? { allowLoaderEnv: changes.allowLoaderEnv }
          : {}),
        timeoutSeconds: changes.timeoutSeconds ?? current.timeoutMs / 1000,
        maxTimeoutSeconds: changes.maxTimeoutSeconds ?? current.maxTimeoutMs / 1000,
        ...(current.transport === 'stdio' && changes.transport === undefined
          ? {}
          : await this.oauthInput(current, changes)),
        ...(changes.trustedOrigins === undefined ? {} : { trustedOrigins: changes.trustedOrigins }),
      },
      current.transport === 'stdio' || this.dependencies.allowLocalCommands(),
    );
    const replace = async (
      kind: string,
      given: unknown,
      old: McpService['headers'],
      entries: [string, string][],
    ) => {
      if (given === undefined) return old;
      for (const entry of old) await secrets.delete(entry.secretRef);
      return this.saveSecrets(current.id, kind, entries);
    };
    const originMoved =
      current.url !== null && parsed.url !== null && originOf(parsed.url) !== originOf(current.url);
    const dropHeaders =
      originMoved &&
      changes.headers === undefined &&
      changes.keepHeaders !== true &&
      current.headers.length > 0;
    const headers = await replace(
      'header',
      dropHeaders ? [] : changes.headers,
      current.headers,
      dropHeaders ? [] : parsed.headers,
    );
    const env =
      changes.env !== undefined
        ? withLoaderAllowance(
            await replace('env', changes.env, current.env, parsed.env),
            parsed.loaderEnv,
          )
        : changes.allowLoaderEnv !== undefined
          ? withLoaderAllowance(
              current.env,
              allowedLoaderEnv(
                current.env.map((entry) => [entry.name, ''] as const),
                changes.allowLoaderEnv,
              ),
            )
          : current.env;
    const oauthChanged =
      changes.clientId !== undefined ||
      changes.clientSecret !== undefined ||
      changes.clientKey !== undefined ||
      changes.oauthGrant !== undefined;
    let oauth = current.oauth;
    if (oauthChanged || parsed.transport === 'stdio') {
      if (current.oauth?.clientSecretRef) await secrets.delete(current.oauth.clientSecretRef);
      if (current.oauth?.clientKeyRef) await secrets.delete(current.oauth.clientKeyRef);
      oauth = await this.saveOAuth(current.id, parsed.oauth);
    }
    // Trust names other origins of the service's host: it goes when the service moves.
    const trusted =
      changes.trustedOrigins !== undefined
        ? parsed.trustedOrigins
        : originMoved || parsed.transport === 'stdio'
          ? []
          : (current.oauth?.trustedOrigins ?? []);
    const trustChanged = trusted.join('\n') !== (current.oauth?.trustedOrigins ?? []).join('\n');
    oauth = withTrust(oauth, trusted);
    if (trustChanged) connections.refusedOrigins.delete(current.id);
    const moved =
      parsed.url !== current.url ||
      parsed.transport !== current.transport ||
      parsed.command !== current.command ||
      changes.headers !== undefined ||
      changes.env !== undefined ||
      changes.allowLoaderEnv !== undefined ||
      oauthChanged;
    // Any edit closes the session (the next use opens one with the service as it is now), and
    // a server's state goes with it: what the user changed is what they get, without a stale
    // session carrying the old name, timeouts or address.
    await connections.disconnect(current.id);
    // A sign-in belongs to the server it was made with, and to the client that made it.
    // So does the authorization server it is bound to: the new server or client binds anew.
    if (originMoved || oauthChanged || parsed.transport === 'stdio') {
      await forgetSignIn(secrets, current.id, true);
      await secrets.delete(issuerRef(current.id));
    }
    if (changes.args !== undefined) {
      const parts: string[] = [];
      parsed.args = liftLiteralSecrets(parsed.args, parts);
      await storeSecretParts(parsed, parts, {
        serviceId: current.id,
        stamp: this.dependencies.clock.now().toString(36),
        secrets,
      });
    }
    const service = store.updateConfig(current.id, configOf(parsed, headers, env, oauth));
    // Secret parts of the old URL or arguments that the new ones no longer hold.
    const kept = new Set(servicePartRefs(service));
    for (const ref of servicePartRefs(current)) if (!kept.has(ref)) await secrets.delete(ref);
    const updated = moved
      ? store.updateService(service.id, {
          testState: 'untested',
          testMessage: null,
          testedAt: null,
        })
      : service;
    const dropped = dropHeaders
      ? `The saved request headers (${current.headers.map((entry) => entry.name).join(', ')}) were removed: they were for ${originOf(current.url ?? '')}, not ${originOf(parsed.url ?? '')}. Enter them again, or keep them with --keep-headers.`
      : null;
    const untrusted =
      changes.trustedOrigins === undefined && trustChanged
        ? `The trusted sign-in origins (${(current.oauth?.trustedOrigins ?? []).join(', ')}) were removed: they were trusted for ${originOf(current.url ?? '')}.`
        : null;
    const notice = [parsed.notice, dropped, untrusted].filter(
      (text): text is string => text !== null,
    );
    return {
      service: await this.view(updated),
      notice: notice.length > 0 ? notice.join(' ') : null,
    };
  }

  async remove(idOrName: string): Promise<void> {
    const { store, secrets, connections } = this.dependencies;
    const service = this.get(idOrName);
    await connections.disconnect(service.id);
    connections.refusedOrigins.delete(service.id);
    store.deleteService(service.id);
    for (const entry of [...service.headers, ...service.env]) await secrets.delete(entry.secretRef);
    for (const ref of servicePartRefs(service)) await secrets.delete(ref);
    for (const ref of [service.oauth?.clientSecretRef, service.oauth?.clientKeyRef])
      if (ref) await secrets.delete(ref);
    await secrets.delete(oauthStateRef(service.id));
    await secrets.delete(issuerRef(service.id));
  }

  /**
   * "Available to me": only a synced service can be switched on; switching it off closes its
   * session (it leaves the table at once; the close itself finishes in the background).
   */
  setEnabled(idOrName: string, enabled: boolean): McpService {
    const service = this.get(idOrName);
    if (enabled && service.syncedAt === null) throw notSynced(service);
    const updated = this.dependencies.store.updateService(service.id, { enabled });
    if (!enabled) void this.dependencies.connections.disconnect(service.id);
    return updated;
  }

  setApproval(idOrName: string, tool: string, policy: McpApprovalPolicy): void {
    this.dependencies.store.setToolApproval(this.get(idOrName).id, tool, policy);
  }

  /** Stores header / env values in the secret store; the service keeps only references. */
  private async saveSecrets(
    serviceId: string,
    kind: string,
    entries: readonly [string, string][],
  ): Promise<McpService['headers']> {
    const saved = [];
    const stamp = this.dependencies.clock.now().toString(36);
    for (const [index, [name, value]] of entries.entries()) {
      const secretRef = `mcp.${serviceId}.${kind}.${stamp}.${index}`;
      await this.dependencies.secrets.set(secretRef, value);
      saved.push({ name, secretRef });
    }
    return saved;
  }

  /** The OAuth client settings as stored: the secret goes to the SecretStore. */
  private async saveOAuth(
    serviceId: string,
    oauth: ParsedOAuthInput | null,
  ): Promise<McpService['oauth']> {
    if (oauth === null) return null;
    const stamp = this.dependencies.clock.now().toString(36);
    let clientSecretRef: string | null = null;
    if (oauth.clientSecret !== null) {
      clientSecretRef = `mcp.${serviceId}.oauth-client.${stamp}`;
      await this.dependencies.secrets.set(clientSecretRef, oauth.clientSecret);
    }
    let clientKeyRef: string | null = null;
    if (oauth.clientKey !== null) {
      clientKeyRef = `mcp.${serviceId}.oauth-key.${stamp}`;
      await this.dependencies.secrets.set(clientKeyRef, oauth.clientKey.pem);
    }
    return {
      grant: oauth.grant,
      clientId: oauth.clientId,
      clientSecretRef,
      clientKeyRef,
      keyAlgorithm: oauth.clientKey?.algorithm ?? null,
      trustedOrigins: [],
    };
  }

  /** The OAuth fields for re-validating an edit: the changes, else what is stored. */
  private async oauthInput(
    current: McpService,
    changes: Partial<McpServiceInput>,
  ): Promise<Pick<McpServiceInput, 'clientId' | 'clientSecret' | 'clientKey' | 'oauthGrant'>> {
    const stored = current.oauth;
    const reveal = async (ref: string | null | undefined) =>
      ref ? ((await this.dependencies.secrets.get(ref)) ?? undefined) : undefined;
    const clientId = changes.clientId ?? stored?.clientId ?? undefined;
    const sameClient = changes.clientId === undefined || changes.clientId === stored?.clientId;
    const credentialGiven = changes.clientSecret !== undefined || changes.clientKey !== undefined;
    // A new secret or key replaces the old credential; a new client id drops it.
    const keep = sameClient && !credentialGiven;
    const clientSecret =
      changes.clientSecret ?? (keep ? await reveal(stored?.clientSecretRef) : undefined);
    const clientKey = changes.clientKey ?? (keep ? await reveal(stored?.clientKeyRef) : undefined);
    const oauthGrant = changes.oauthGrant ?? stored?.grant;
    return {
      ...(clientId ? { clientId } : {}),
      ...(clientSecret ? { clientSecret } : {}),
      ...(clientKey ? { clientKey } : {}),
      ...(oauthGrant ? { oauthGrant } : {}),
    };
  }
}

/** The error for switching on or accepting a service that was never synced. */
export function notSynced(service: McpService): AivoryError {
  return new AivoryError(
    'invalid-input',
    `"${service.name}" has never been synced: run aivory mcp sync ${service.name} first.`,
  );
}

/**
 * The stored OAuth settings with `trusted` as the service's trusted sign-in origins; null when
 * everything is the default (no client, the user signs in, no trust).
 */
function withTrust(oauth: McpService['oauth'], trusted: readonly string[]): McpService['oauth'] {
  const base = oauth ?? {
    grant: 'authorization_code' as const,
    clientId: null,
    clientSecretRef: null,
    clientKeyRef: null,
    keyAlgorithm: null,
    trustedOrigins: [],
  };
  const next = { ...base, trustedOrigins: [...trusted] };
  const defaults =
    next.grant === 'authorization_code' &&
    next.clientId === null &&
    next.clientSecretRef === null &&
    next.clientKeyRef === null &&
    next.trustedOrigins.length === 0;
  return defaults ? null : next;
}

/** The stored configuration from validated input and the secret references of its values. */
function configOf(
  parsed: ParsedServiceInput,
  headers: McpService['headers'],
  env: McpService['env'],
  oauth: McpService['oauth'],
): Omit<NewMcpService, 'id'> {
  return {
    name: parsed.name,
    icon: parsed.icon,
    description: parsed.description,
    transport: parsed.transport,
    url: parsed.url,
    command: parsed.command,
    args: parsed.args,
    headers,
    env,
    timeoutMs: parsed.timeoutMs,
    maxTimeoutMs: parsed.maxTimeoutMs,
    oauth,
  };
}
