/**
 * `mcp.*`: the settings page's MCP services over `McpServices`. Views are built field by field
 * (header and environment values only ever masked); a stdio service needs the local-commands
 * setting and the user's explicit confirmation of the command line.
 */
import type { z } from 'zod';
import { AivoryError } from '../../../shared/errors';
import type { InvokeResponse, ParsedRequest } from '../../../shared/ipc-contract';
import type { mcpServiceViewSchema } from '../../../shared/ipc/mcp-methods';
import type { McpToolInfo } from '../../../shared/mcp';
import { SIGN_IN_TIMEOUT_MS } from '../../../shared/mcp';
import { isCallable } from '../../services/mcp/mcp-diff';
import type { McpServiceView } from '../../services/mcp/mcp-services';
import { resourceFiles } from '../../services/mcp/resource-attachments';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';

/** A test, sync or library call gives up after this long (the service's own limits are inside). */
export const MCP_REQUEST_TIMEOUT_MS = 60_000;

/** `mcp.importPlan` / `mcp.import` live in `mcp-import-handlers.ts`. */
type McpMethod = Exclude<
  Extract<keyof ApiHandlers, `mcp.${string}`>,
  'mcp.importPlan' | 'mcp.import'
>;
type McpHandlers = Pick<ApiHandlers, McpMethod>;
type ServiceView = z.infer<typeof mcpServiceViewSchema>;

/** The MCP handlers over the host context. */
export function createMcpHandlers(context: HostContext): McpHandlers {
  const { mcp } = context.app;
  const viewOf = async (id: string): Promise<ServiceView> => {
    const service = mcp.get(id);
    const view = (await mcp.list()).find((candidate) => candidate.id === service.id);
    if (!view) throw new AivoryError('not-found', `No MCP service named "${id}".`);
    return serviceView(view);
  };
  const signal = (): AbortSignal => AbortSignal.timeout(MCP_REQUEST_TIMEOUT_MS);
  // A test or sync may turn into an OAuth sign-in: the user's time in the browser counts too.
  const signInSignal = (): AbortSignal =>
    AbortSignal.timeout(SIGN_IN_TIMEOUT_MS + MCP_REQUEST_TIMEOUT_MS);
  return {
    'mcp.list': async () => ({
      services: (await mcp.list()).map(serviceView),
      allowLocalCommands: context.app.settings.get('mcp').allowLocalCommands,
    }),
    'mcp.add': async (request) => addService(context, request),
    'mcp.update': async (request) => updateService(context, request),
    'mcp.remove': async ({ id }) => {
      await mcp.remove(id);
      return { ok: true };
    },
    'mcp.login': async ({ id }) => {
      const result = await mcp.login(id, signInSignal());
      return { ...result, service: await viewOf(id) };
    },
    'mcp.trustSignInOrigin': async ({ id, origin, trusted }) =>
      serviceView(await mcp.trustSignInOrigin(id, origin, trusted)),
    'mcp.approveAuthServer': async ({ id, issuer }) =>
      serviceView(await mcp.approveAuthServer(id, issuer)),
    'mcp.logout': async ({ id }) => {
      await mcp.logout(id);
      return viewOf(id);
    },
    'mcp.test': async ({ id }) => {
      const result = await mcp.test(id, signInSignal());
      return { ...result, service: await viewOf(id) };
    },
    'mcp.sync': async ({ id, accept }) => {
      const result = await mcp.sync(id, { accept: accept ?? false, signal: signInSignal() });
      return {
        toolCount: result.toolCount,
        changes: result.changes.map(toolChange),
        service: await viewOf(id),
      };
    },
    'mcp.diff': ({ id }) => mcp.diff(id).map(toolChange),
    'mcp.accept': async ({ id }) => {
      mcp.accept(id);
      return viewOf(id);
    },
    'mcp.setEnabled': async ({ id, enabled }) => {
      mcp.setEnabled(id, enabled);
      return viewOf(id);
    },
    'mcp.tools': ({ id }) => toolRecords(context, id),
    'mcp.setApproval': ({ id, tool, policy }) => {
      if (!mcp.tools(id).some((record) => record.name === tool)) {
        throw new AivoryError('not-found', `The service has no tool named "${tool}".`);
      }
      mcp.setApproval(id, tool, policy);
      return toolRecords(context, id);
    },
    'mcp.library': async ({ id }) => mcp.library(id, signal()),
    'mcp.complete': async ({ id, ref, argument, context: others }) =>
      mcp.complete(id, ref, argument, others ?? {}, signal()),
    'mcp.watchResource': async ({ id, uri }) => {
      const serviceId = mcp.get(id).id;
      let watchId = '';
      watchId = await mcp.watchResource(
        id,
        uri,
        (event) => {
          if (event.kind === 'updated')
            context.events.publish('mcp.resourceUpdated', { watchId, serviceId, uri });
          else
            context.events.publish('mcp.watchEnded', {
              watchId,
              serviceId,
              uri,
              reason: event.reason,
            });
        },
        signal(),
      );
      return { watchId };
    },
    'mcp.unwatchResource': async ({ watchId }) => ({ ok: await mcp.unwatchResource(watchId) }),
    'mcp.getPrompt': async ({ id, name, arguments: args }) => ({
      text: await mcp.getPrompt(id, name, args ?? {}, signal()),
    }),
    'mcp.readResource': async ({ id, uri }) => ({
      text: await mcp.readResource(id, uri, signal()),
    }),
    'mcp.attachResource': async ({ id, uri }) => {
      const files = resourceFiles(await mcp.readResourceContents(id, uri, signal()), uri);
      return {
        service: mcp.get(id).name,
        files: files.map((file) => ({
          name: file.name,
          mime: file.mime,
          size: file.data.byteLength,
          dataBase64: Buffer.from(file.data).toString('base64'),
        })),
      };
    },
  };
}

async function addService(
  context: HostContext,
  request: ParsedRequest<'mcp.add'>,
): Promise<InvokeResponse<'mcp.add'>> {
  if (request.transport === 'stdio') {
    if (!context.app.settings.get('mcp').allowLocalCommands) {
      throw new AivoryError(
        'invalid-input',
        'Local command MCP servers are off: switch on "allow local command servers" first.',
      );
    }
    if (request.confirmCommand !== true) {
      throw new AivoryError(
        'invalid-input',
        'A local command server runs with your permissions: confirm the command first.',
      );
    }
  }
  const { service, notice } = await context.app.mcp.add({
    name: request.name,
    icon: request.icon,
    description: request.description,
    transport: request.transport,
    ...(request.url === undefined ? {} : { url: request.url }),
    ...(request.headers ? { headers: request.headers.map((h) => `${h.name}: ${h.value}`) } : {}),
    ...(request.timeoutSeconds === undefined ? {} : { timeoutSeconds: request.timeoutSeconds }),
    ...(request.maxTimeoutSeconds === undefined
      ? {}
      : { maxTimeoutSeconds: request.maxTimeoutSeconds }),
    ...(request.command === undefined ? {} : { command: request.command }),
    ...(request.args ? { args: request.args } : {}),
    ...(request.env ? { env: request.env.map((entry) => `${entry.name}=${entry.value}`) } : {}),
    ...(request.allowLoaderEnv ? { allowLoaderEnv: request.allowLoaderEnv } : {}),
  });
  return { service: serviceView(service), notice };
}

async function updateService(
  context: HostContext,
  request: ParsedRequest<'mcp.update'>,
): Promise<InvokeResponse<'mcp.update'>> {
  const current = context.app.mcp.get(request.id);
  // The environment is part of what runs (NODE_OPTIONS=--require … runs code): new values are a
  // command change like a new command or new arguments.
  const commandChanged =
    (request.command !== undefined && request.command !== current.command) ||
    (request.args !== undefined && request.args.join('\u0000') !== current.args.join('\u0000')) ||
    (request.env !== undefined && request.env.length > 0) ||
    request.allowLoaderEnv !== undefined ||
    (request.transport === 'stdio' && current.transport !== 'stdio');
  if ((request.transport === 'stdio' || current.transport === 'stdio') && commandChanged) {
    if (request.confirmCommand !== true) {
      throw new AivoryError(
        'invalid-input',
        'A local command server runs with your permissions: confirm the command first.',
      );
    }
  }
  const { service, notice } = await context.app.mcp.update(request.id, {
    ...(request.name === undefined ? {} : { name: request.name }),
    ...(request.icon === undefined ? {} : { icon: request.icon }),
    ...(request.description === undefined ? {} : { description: request.description }),
    ...(request.transport === undefined ? {} : { transport: request.transport }),
    ...(request.url === undefined ? {} : { url: request.url }),
    ...(request.headers ? { headers: request.headers.map((h) => `${h.name}: ${h.value}`) } : {}),
    ...(request.timeoutSeconds === undefined ? {} : { timeoutSeconds: request.timeoutSeconds }),
    ...(request.maxTimeoutSeconds === undefined
      ? {}
      : { maxTimeoutSeconds: request.maxTimeoutSeconds }),
    ...(request.command === undefined ? {} : { command: request.command }),
    ...(request.args ? { args: request.args } : {}),
    ...(request.env ? { env: request.env.map((entry) => `${entry.name}=${entry.value}`) } : {}),
    ...(request.allowLoaderEnv ? { allowLoaderEnv: request.allowLoaderEnv } : {}),
    ...(request.keepHeaders === undefined ? {} : { keepHeaders: request.keepHeaders }),
  });
  return { service: serviceView(service), notice };
}

/** A service view with exactly the contract's fields (nothing else can slip through). */
export function serviceView(view: McpServiceView): ServiceView {
  return {
    id: view.id,
    name: view.name,
    icon: view.icon,
    description: view.description,
    transport: view.transport,
    url: view.url,
    command: view.command,
    args: [...view.args],
    headers: view.headers.map(({ name, value }) => ({ name, value })),
    env: view.env.map(({ name, value }) => ({ name, value })),
    enabled: view.enabled,
    timeoutMs: view.timeoutMs,
    maxTimeoutMs: view.maxTimeoutMs,
    testState: view.testState,
    testMessage: view.testMessage,
    testedAt: view.testedAt,
    syncedAt: view.syncedAt,
    stale: view.stale,
    toolCount: view.toolCount,
    callableCount: view.callableCount,
    pendingChanges: view.pendingChanges,
    signIn: view.signIn === null ? null : { ...view.signIn },
    oauthClientId: view.oauth?.clientId ?? null,
    trustedSignInOrigins: [...(view.oauth?.trustedOrigins ?? [])],
    refusedSignInOrigin: view.refusedSignInOrigin,
    movedSignIn: view.movedSignIn === null ? null : { ...view.movedSignIn },
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
}

function toolRecords(context: HostContext, id: string): InvokeResponse<'mcp.tools'> {
  return context.app.mcp
    .tools(id)
    .map((record) => ({
      name: record.name,
      accepted: toolInfo(record.accepted),
      latest: toolInfo(record.latest),
      approval: record.approval,
      callable: isCallable(record),
    }))
    .sort((left, right) => left.name.localeCompare(right.name));
}

function toolChange(
  change: ReturnType<HostContext['app']['mcp']['diff']>[number],
): InvokeResponse<'mcp.diff'>[number] {
  return {
    tool: change.tool,
    kinds: [...change.kinds],
    before: toolInfo(change.before),
    after: toolInfo(change.after),
  };
}

function toolInfo(info: McpToolInfo | null): InvokeResponse<'mcp.tools'>[number]['accepted'] {
  if (info === null) return null;
  return {
    name: info.name,
    description: info.description,
    inputSchema: info.inputSchema,
    annotations: info.annotations === null ? null : { ...info.annotations },
  };
}
