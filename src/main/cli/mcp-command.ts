/**
 * `aivory mcp add|list|test|sync|diff|accept|tools|approval|call|roots|enable|disable|remove`: the
 * user's MCP services from the terminal, through the same services as the app.
 */
import { parseArgs } from 'node:util';
import { AivoryError } from '../../shared/errors';
import type {
  McpApprovalPolicy,
  McpService,
  McpToolAnnotations,
  McpToolChange,
} from '../../shared/mcp';
import type { McpResourceContents } from '../core/ports';
import type { AppContext } from '../composition/app-context';
import { describeChange } from '../services/mcp/mcp-diff';
import type { McpServiceInput } from '../services/mcp/mcp-service-input';
import type { McpServiceView } from '../services/mcp/mcp-services';
import { buildEntries } from '../services/mcp/mcp-turn-tools';
import { SCRATCH_CONVERSATION_ID } from '../services/workspace-staging';
import { binaryFileType } from '../services/mime-types';
import { cleanProgressMessage } from '../services/turn-progress';
import type { ToolProgressEvent } from '../../shared/turn-events';
import { FileArtifactSink } from '../adapters/artifacts/file-artifact-sink';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliElicitor } from './cli-elicitor';
import { mcpCallSampler } from './cli-sampler';
import { joinOptionValues, shellWord } from './cli-args';
import { EXIT_FAILED, EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import {
  IMPORT_USAGE,
  enableAfterAdd,
  mcpExport,
  mcpImport,
  toolCount,
} from './mcp-import-command';
import { mcpRootsCommand } from './mcp-roots-command';
import { COMPLETE_USAGE, mcpComplete, mcpWatchResource, watchCount } from './mcp-library-command';
import { progressThrottle, structuredLines, traceLine } from './trace-format';

/** `allow` still asks in a turn that read untrusted content; `allow-even-after-web` does not. */
const APPROVAL_POLICIES: readonly string[] = [
  'ask',
  'allow',
  'allow-even-after-web',
  'deny',
  'default',
];

const USAGE = `Usage: aivory mcp ACTION …  (aivory --help lists every option)
  add --name N (--url URL | --command CMD) --description D [--enable [--yes]] …
  edit N [--name …] [--url …] [--header …]… [--keep-headers] [--allow-loader-env VAR]… …
  import FILE|- [--yes] [--enable] [--input ID=VALUE]… [--allow-loader-env SERVICE:VAR]… | export [--file F]
  list | login N [--auth-server ISSUER] | logout N | test N | sync N [--accept] | diff N | accept N | tools N
  approval N TOOL ask|allow|allow-even-after-web|deny|default | call N TOOL JSON
  prompts N | prompt N NAME [k=v]… | resources N | resource N URI [--watch [--count N]] | roots N
  complete N prompt NAME ARG [PREFIX] | complete N resource TEMPLATE ARG [PREFIX] [--context k=v]…
  enable N | disable N | remove N`;

const MCP_OPTIONS = {
  name: { type: 'string' },
  url: { type: 'string' },
  icon: { type: 'string' },
  description: { type: 'string' },
  header: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  'max-timeout': { type: 'string' },
  transport: { type: 'string' },
  command: { type: 'string' },
  arg: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  'allow-loader-env': { type: 'string', multiple: true },
  accept: { type: 'boolean', default: false },
  add: { type: 'string' },
  remove: { type: 'string' },
  'keep-headers': { type: 'boolean', default: false },
  approve: { type: 'string' },
  elicit: { type: 'string' },
  sampling: { type: 'string' },
  json: { type: 'boolean', default: false },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'client-secret-file': { type: 'string' },
  'client-key-file': { type: 'string' },
  'oauth-grant': { type: 'string' },
  'trust-auth-server': { type: 'string', multiple: true },
  'untrust-auth-server': { type: 'string', multiple: true },
  enable: { type: 'boolean', default: false },
  yes: { type: 'boolean', default: false },
  input: { type: 'string', multiple: true },
  file: { type: 'string' },
  'new-client': { type: 'boolean', default: false },
  'auth-server': { type: 'string' },
  'forget-client': { type: 'boolean', default: false },
  watch: { type: 'boolean', default: false },
  count: { type: 'string' },
  context: { type: 'string', multiple: true },
} as const;

export async function mcpCommand(argv: string[], context: AppContext, io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    // `--arg -y`: the token after a value-taking option is its value, even when it starts with -.
    args: joinOptionValues(argv, MCP_OPTIONS),
    allowPositionals: true,
    options: MCP_OPTIONS,
  });
  const [action, name, ...rest] = positionals;
  const services = context.mcp;
  const signal = interruptSignal(io);
  const print = (text: string) => io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  // A server asking for an OAuth sign-in: the page opens in the browser ($BROWSER when set), and
  // its link is printed for a machine without one.
  services.onSignInPage((page) => {
    io.stderr(
      `Sign in to ${page.serviceName} in your browser. If it did not open, open this link:\n  ${page.url}\n`,
    );
  });
  switch (action) {
    case 'add':
    case 'edit': {
      const flags = serviceFlags(values);
      const trust = values['trust-auth-server'] ?? [];
      const untrust = values['untrust-auth-server'] ?? [];
      if (values.enable && action !== 'add')
        throw usageError('--enable applies to aivory mcp add (then: aivory mcp enable NAME).');
      if (action === 'add' && untrust.length > 0)
        throw usageError('--untrust-auth-server applies to aivory mcp edit only.');
      const { service, notice } =
        action === 'add'
          ? await services.add({
              name: values.name ?? '',
              ...flags,
              ...(trust.length > 0 ? { trustedOrigins: trust } : {}),
            })
          : await services.update(required(name), {
              ...(values.name ? { name: values.name } : {}),
              ...flags,
              ...(values['keep-headers'] ? { keepHeaders: true } : {}),
              ...editedTrust(services.get(required(name)), trust, untrust),
            });
      if (notice) io.stderr(`Notice: ${notice}\n`);
      const word = shellWord(service.name);
      if (values.enable) {
        print(`Added ${service.name} (${service.id}).`);
        return enableAfterAdd(service.name, values.yes, context, io, signal);
      }
      print(
        values.json
          ? JSON.stringify(service)
          : action === 'edit'
            ? `Updated ${service.name}${service.testState === 'untested' ? ` (test it again: aivory mcp test ${word})` : ''}.`
            : `Added ${service.name} (${service.id}). Next: aivory mcp test ${word}, then aivory mcp sync ${word} --accept, then aivory mcp enable ${word}.`,
      );
      return EXIT_OK;
    }
    case 'list':
    case undefined: {
      const list = await services.list();
      if (values.json) print(JSON.stringify(list));
      else if (list.length === 0)
        print(
          'No MCP services yet. Add one with: aivory mcp add --name N --url URL --description D',
        );
      else for (const service of list) print(describeService(service));
      return EXIT_OK;
    }
    case 'login': {
      // The user's approval of the authorization server the resource moved to (or names).
      const issuer = values['auth-server'];
      if (issuer !== undefined) {
        await services.approveAuthServer(required(name), issuer);
        print(`Sign-in of ${services.get(required(name)).name} bound to ${issuer}.`);
      }
      const result = await services.login(required(name), signal, {
        newClient: values['new-client'],
      });
      print(`${result.ok ? '✓' : '✗ sign-in failed:'} ${result.message}`);
      return result.ok ? EXIT_OK : EXIT_FAILED;
    }
    case 'logout': {
      const forget = values['forget-client'];
      const was = await services.logout(required(name), { forgetClient: forget });
      const label = services.get(required(name)).name;
      print(
        (was ? `Signed out of ${label}: its tokens were deleted.` : `${label} was not signed in.`) +
          (forget ? ' Its client registration was dropped: the next sign-in registers anew.' : ''),
      );
      return EXIT_OK;
    }
    case 'test': {
      const result = await services.test(required(name), signal);
      print(`${result.ok ? '✓ connected' : '✗ connection error'}: ${result.message}`);
      return result.ok ? EXIT_OK : EXIT_FAILED;
    }
    case 'sync': {
      const result = await services.sync(required(name), { accept: values.accept, signal });
      if (values.json) print(JSON.stringify(result));
      else {
        print(`Found ${toolCount(result.toolCount)}.`);
        printChanges(result.changes, values.accept, required(name), print);
      }
      return EXIT_OK;
    }
    case 'diff': {
      const changes = services.diff(required(name));
      if (values.json) print(JSON.stringify(changes));
      else printChanges(changes, false, required(name), print);
      return EXIT_OK;
    }
    case 'accept':
      services.accept(required(name));
      print(`Accepted the last sync of ${required(name)}: its tools can be called.`);
      return EXIT_OK;
    case 'tools': {
      const tools = services.tools(required(name));
      if (values.json) print(JSON.stringify(tools));
      else
        for (const tool of tools)
          print(
            `${tool.name}\t${tool.approval}\t${hintWords(tool.latest?.annotations ?? null)}\t${tool.latest?.description.slice(0, 100) ?? '(removed)'}`,
          );
      return EXIT_OK;
    }
    case 'approval': {
      const [tool, policy] = rest;
      if (!tool || !APPROVAL_POLICIES.includes(policy ?? ''))
        throw usageError(
          'Usage: aivory mcp approval SERVICE TOOL ask|allow|allow-even-after-web|deny|default',
        );
      services.setApproval(required(name), tool, policy as McpApprovalPolicy);
      print(`${tool}: ${policy}`);
      return EXIT_OK;
    }
    case 'enable':
    case 'disable':
      services.setEnabled(required(name), action === 'enable');
      print(`${required(name)} ${action === 'enable' ? 'enabled' : 'disabled'}.`);
      return EXIT_OK;
    case 'remove':
      await services.remove(required(name));
      print(`Removed ${required(name)}.`);
      return EXIT_OK;
    case 'prompts':
    case 'resources': {
      const library = await services.library(required(name), signal);
      const offered =
        action === 'prompts' ? library.prompts : [...library.resources, ...library.templates];
      if (values.json) print(JSON.stringify(library));
      else if (offered.length === 0)
        print(`${services.get(required(name)).name} offers no ${action}.`);
      else if (action === 'prompts')
        for (const prompt of library.prompts)
          print(
            `${prompt.name}\t${prompt.arguments.map((arg) => (arg.required ? arg.name : `[${arg.name}]`)).join(' ')}\t${prompt.description}`,
          );
      else {
        for (const resource of library.resources)
          print(`${resource.uri}\t${resource.mimeType ?? ''}\t${resource.name}`);
        // Templates: fill in the {placeholders} and read with aivory mcp resource.
        for (const template of library.templates)
          print(`${template.uriTemplate}\t${template.mimeType ?? ''}\t${template.name} (template)`);
      }
      return EXIT_OK;
    }
    case 'prompt': {
      const [promptName, ...pairs] = rest;
      if (!promptName) throw usageError('Usage: aivory mcp prompt SERVICE NAME [key=value]…');
      const args = Object.fromEntries(
        pairs.map((pair) => {
          const equals = pair.indexOf('=');
          if (equals < 1) throw usageError(`Prompt arguments look like key=value (got "${pair}").`);
          return [pair.slice(0, equals), pair.slice(equals + 1)];
        }),
      );
      print(await services.getPrompt(required(name), promptName, args, signal));
      return EXIT_OK;
    }
    case 'resource': {
      const [uri] = rest;
      if (!uri || rest.length > 1)
        throw usageError('Usage: aivory mcp resource SERVICE URI [--watch [--count N]]');
      if (values.count !== undefined && !values.watch)
        throw usageError('--count goes with --watch.');
      const show = async (contents: McpResourceContents) => {
        print(contents.text);
        // Binary parts are saved as files (named from their bytes' type, never the server's name).
        const artifacts = artifactSink(context, io);
        const serviceName = services.get(required(name)).name;
        for (const [index, blob] of contents.blobs.entries()) {
          const type = binaryFileType(blob.data);
          const saved = await artifacts.save(
            SCRATCH_CONVERSATION_ID,
            `${serviceName}-resource-${index + 1}.${type.extension}`,
            blob.data,
            type.mime,
          );
          io.stderr(`📎 ${saved.name} → ${saved.path}\n`);
        }
      };
      if (values.watch)
        return mcpWatchResource(
          context,
          io,
          required(name),
          uri,
          { count: watchCount(values.count), print: show },
          signal,
        );
      await show(await services.readResourceContents(required(name), uri, signal));
      return EXIT_OK;
    }
    case 'complete':
      if (name === undefined) throw usageError(COMPLETE_USAGE);
      return mcpComplete(
        context,
        io,
        name,
        rest,
        { json: values.json, context: values.context ?? [] },
        signal,
      );
    case 'import':
      if (rest.length > 0) throw usageError(IMPORT_USAGE);
      return mcpImport(
        name,
        {
          yes: values.yes,
          enable: values.enable,
          input: values.input ?? [],
          allowLoaderEnv: values['allow-loader-env'] ?? [],
        },
        context,
        io,
        signal,
      );
    case 'export':
      if (name !== undefined) throw usageError('Usage: aivory mcp export [--file F]');
      return mcpExport(values.file, context, io);
    case 'roots':
      return mcpRootsCommand(context, io, name, { ...values, json: values.json });
    case 'call':
      return callTool(
        context,
        io,
        required(name),
        rest,
        { approve: values.approve, elicit: values.elicit, sampling: values.sampling },
        signal,
      );
    default:
      throw usageError(USAGE);
  }
}

/** Where the CLI's MCP files go (as `aivory chat` would put them). */
function artifactSink(context: AppContext, io: CliIo): FileArtifactSink {
  return new FileArtifactSink(io.env.AIVORY_ARTIFACTS_DIR ?? join(context.dataDir, 'artifacts'));
}

/** Tools named in "has no tool named" (the rest are counted). */
const LISTED_TOOLS = 20;

/**
 * `call SERVICE TOOL JSON`: one call with the same timeout and cap rules as a turn. It is the
 * user's own explicit action, so it asks no approval; a tool set to `deny` still refuses.
 */
async function callTool(
  context: AppContext,
  io: CliIo,
  serviceName: string,
  rest: string[],
  flags: {
    approve: string | undefined;
    elicit: string | undefined;
    sampling: string | undefined;
  },
  signal: AbortSignal,
): Promise<number> {
  const [toolName, json = '{}'] = rest;
  if (!toolName) throw usageError('Usage: aivory mcp call SERVICE TOOL JSON');
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch {
    throw new AivoryError('invalid-input', 'The tool arguments are not valid JSON.');
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new AivoryError('invalid-input', 'The tool arguments must be a JSON object.');
  const service = context.mcp.get(serviceName);
  const elicit = cliElicitor(flags.elicit, io);
  const sample = await mcpCallSampler(context, io, flags.sampling);
  if (flags.approve !== undefined)
    io.stderr('Notice: mcp call asks no approval (running it is yours); --approve is ignored.\n');
  const dependencies = {
    services: context.mcp,
    store: context.stores.mcp,
    artifacts: artifactSink(context, io),
    scratchConversationId: SCRATCH_CONVERSATION_ID,
  };
  const entry = buildEntries(dependencies, new Set()).find(
    (candidate) => candidate.serviceId === service.id && candidate.mcpTool === toolName,
  );
  if (!entry) throw notCallable(context, service, toolName);
  // The server's progress as dim trace lines, at most one a second.
  const printProgress = progressThrottle(() => performance.now());
  const output = await entry.callAsUser(args as Record<string, unknown>, {
    conversationId: null,
    signal,
    logger: context.logger,
    elicit,
    sample,
    onProgress: (report) => {
      if (!Number.isFinite(report.progress)) return;
      const message = cleanProgressMessage(report.message);
      const event: ToolProgressEvent = {
        type: 'tool-progress',
        turnId: '',
        toolCallId: toolName,
        progress: report.progress,
        ...(report.total !== undefined && Number.isFinite(report.total)
          ? { total: report.total }
          : {}),
        ...(message === undefined ? {} : { message }),
      };
      const line = printProgress(event) ? traceLine(event) : null;
      if (line !== null) io.stderr(`${io.dim(line)}\n`);
    },
  });
  io.stdout(`${output.content}\n`);
  if (output.structured !== undefined)
    for (const line of structuredLines(output.structured)) io.stderr(`${line}\n`);
  for (const artifact of output.artifacts ?? [])
    io.stderr(`📎 ${artifact.name} → ${artifact.path}\n`);
  return output.isError ? EXIT_FAILED : EXIT_OK;
}

/** Why `mcp call` cannot run the tool: it does not exist, or it is not callable yet. */
function notCallable(context: AppContext, service: McpService, toolName: string): AivoryError {
  const word = shellWord(service.name);
  const offered = context.mcp
    .tools(service.id)
    .flatMap((tool) => (tool.latest !== null || tool.accepted !== null ? [tool.name] : []));
  if (!offered.includes(toolName)) {
    const more = offered.length - LISTED_TOOLS;
    const listed =
      service.syncedAt === null
        ? ` (it has never been synced: aivory mcp sync ${word})`
        : offered.length === 0
          ? ' (its last sync found no tools)'
          : `. Its tools: ${offered.slice(0, LISTED_TOOLS).join(', ')}${more > 0 ? ` and ${more} more (aivory mcp tools ${word})` : ''}`;
    return new AivoryError(
      'not-found',
      `Service ${service.name} has no tool named ${toolName}${listed}.`,
    );
  }
  return new AivoryError(
    'invalid-input',
    `${toolName} of "${service.name}" cannot be called: the service must be enabled and synced, and the tool accepted (aivory mcp diff ${word}).`,
  );
}

function describeService(service: McpServiceView): string {
  const state = !service.enabled ? 'disabled' : service.syncedAt === null ? 'unsynced' : 'enabled';
  const synced =
    service.syncedAt === null
      ? 'never synced'
      : `last synced ${new Date(service.syncedAt).toISOString().replace('T', ' ').slice(0, 16)}`;
  const where = service.url ?? [service.command, ...service.args].join(' ');
  const extra = [
    service.pendingChanges > 0
      ? `${service.pendingChanges} changes to review (aivory mcp diff ${shellWord(service.name)})`
      : null,
    service.stale ? 'the server reported changed tools: sync again' : null,
    signInLine(service),
    service.movedSignIn === null
      ? null
      : `sign-in moved from ${service.movedSignIn.from} to ${service.movedSignIn.to}, nothing sent there; allow it: aivory mcp login ${shellWord(service.name)} --auth-server ${shellWord(service.movedSignIn.to)}`,
    (service.oauth?.trustedOrigins ?? []).length > 0
      ? `sign-in may also use ${(service.oauth?.trustedOrigins ?? []).join(', ')} (trusted)`
      : null,
  ].filter((item) => item !== null);
  return `${service.icon} ${service.name}\t${state}\t${service.testState}\tfound ${service.toolCount} / callable ${service.callableCount}\t${synced}\t${where}${extra.length ? `\n    ${extra.join('; ')}` : ''}`;
}

/** "signed in at … (expires …)" for a service that has an OAuth sign-in. */
function signInLine(service: McpServiceView): string | null {
  const status = service.signIn;
  if (status === null || !status.signedIn) return null;
  const expires =
    status.expiresAt === null
      ? ''
      : `, ${status.expiresAt < Date.now() ? 'expired' : 'expires'} ${new Date(status.expiresAt).toISOString().replace('T', ' ').slice(0, 16)}${status.refreshable ? ' (renews itself)' : ''}`;
  return `signed in${status.authServer ? ` at ${status.authServer}` : ''}${expires}; sign out: aivory mcp logout ${shellWord(service.name)}`;
}

function printChanges(
  changes: McpToolChange[],
  accepted: boolean,
  name: string,
  print: (text: string) => void,
): void {
  if (changes.length === 0) {
    print('No changes since the accepted snapshot.');
    return;
  }
  for (const change of changes) print(describeChange(change));
  print(
    accepted
      ? 'Accepted: these tools can be called now.'
      : `New and changed tools cannot be called until you accept: aivory mcp accept ${shellWord(name)}`,
  );
}

/** The service fields given on the command line (absent flags are left out). */
function serviceFlags(values: {
  url?: string | undefined;
  icon?: string | undefined;
  description?: string | undefined;
  header?: string[] | undefined;
  timeout?: string | undefined;
  'max-timeout'?: string | undefined;
  transport?: string | undefined;
  command?: string | undefined;
  arg?: string[] | undefined;
  env?: string[] | undefined;
  'allow-loader-env'?: string[] | undefined;
  'client-id'?: string | undefined;
  'client-secret'?: string | undefined;
  'client-secret-file'?: string | undefined;
  'client-key-file'?: string | undefined;
  'oauth-grant'?: string | undefined;
}): Partial<McpServiceInput> {
  const transport = values.transport;
  if (
    transport !== undefined &&
    transport !== 'streamable-http' &&
    transport !== 'sse' &&
    transport !== 'stdio'
  )
    throw usageError('--transport must be streamable-http, sse or stdio.');
  const grant = values['oauth-grant'];
  if (grant !== undefined && grant !== 'authorization-code' && grant !== 'client-credentials')
    throw usageError('--oauth-grant must be authorization-code or client-credentials.');
  return {
    ...(values['client-id'] !== undefined ? { clientId: values['client-id'] } : {}),
    ...clientSecretOption(values['client-secret'], values['client-secret-file']),
    ...(values['client-key-file'] !== undefined
      ? { clientKey: readKeyFile(values['client-key-file']) }
      : {}),
    ...(grant
      ? {
          oauthGrant:
            grant === 'client-credentials'
              ? ('client_credentials' as const)
              : ('authorization_code' as const),
        }
      : {}),
    ...(values.icon ? { icon: values.icon } : {}),
    ...(values.description !== undefined ? { description: values.description } : {}),
    ...(transport ? { transport } : {}),
    ...(values.url ? { url: values.url } : {}),
    ...(values.command ? { command: values.command } : {}),
    ...(values.arg ? { args: values.arg } : {}),
    ...(values.env ? { env: values.env } : {}),
    ...(values['allow-loader-env'] ? { allowLoaderEnv: values['allow-loader-env'] } : {}),
    ...(values.header ? { headers: values.header } : {}),
    ...(values.timeout ? { timeoutSeconds: seconds(values.timeout, '--timeout') } : {}),
    ...(values['max-timeout']
      ? { maxTimeoutSeconds: seconds(values['max-timeout'], '--max-timeout') }
      : {}),
  };
}

/**
 * `--trust-auth-server` / `--untrust-auth-server` on edit: the service's trusted sign-in origins
 * with these added and those removed (the service checks each); nothing when neither is given.
 */
function editedTrust(
  current: McpService,
  trust: readonly string[],
  untrust: readonly string[],
): { trustedOrigins?: string[] } {
  if (trust.length === 0 && untrust.length === 0) return {};
  const normal = (text: string) => {
    try {
      return new URL(text.trim()).origin;
    } catch {
      return text.trim();
    }
  };
  const stored = current.oauth?.trustedOrigins ?? [];
  for (const origin of untrust)
    if (!stored.includes(normal(origin)))
      throw usageError(
        `--untrust-auth-server: ${current.name} does not trust ${JSON.stringify(origin.slice(0, 100))} (it trusts ${stored.length > 0 ? stored.join(', ') : 'no other origin'}).`,
      );
  const removed = new Set(untrust.map(normal));
  return { trustedOrigins: [...stored.filter((origin) => !removed.has(origin)), ...trust] };
}

/** The private key file of `--client-key-file` (read here; the key goes to the SecretStore). */
/**
 * The client secret from `--client-secret S` or, kept out of the process list and the shell
 * history, `--client-secret-file F` (`-` reads standard input); one trailing newline is dropped.
 */
function clientSecretOption(
  inline: string | undefined,
  file: string | undefined,
): { clientSecret?: string } {
  if (inline !== undefined && file !== undefined)
    throw usageError('Give --client-secret or --client-secret-file, not both.');
  if (inline !== undefined) return { clientSecret: inline };
  if (file === undefined) return {};
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch {
    throw usageError(
      `--client-secret-file: cannot read ${file === '-' ? 'standard input' : file}.`,
    );
  }
  if (text.length > 64 * 1024) throw usageError('--client-secret-file is over 64 KiB.');
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '' || /[\r\n]/.test(secret))
    throw usageError('--client-secret-file must hold the secret on one line.');
  return { clientSecret: secret };
}

function readKeyFile(path: string): string {
  try {
    const text = readFileSync(path, 'utf8');
    if (text.length > 64 * 1024) throw usageError('--client-key-file is not a key (over 64 KiB).');
    return text;
  } catch (error) {
    if (error instanceof AivoryError) throw error;
    throw usageError(`--client-key-file: cannot read ${path}.`);
  }
}

function required(name: string | undefined): string {
  if (!name) throw usageError(USAGE);
  return name;
}

function seconds(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw usageError(`${flag} must be a whole number of seconds.`);
  return value;
}

function interruptSignal(io: CliIo): AbortSignal {
  const controller = new AbortController();
  io.onInterrupt(() => controller.abort());
  return controller.signal;
}

/**
 * A tool's annotations as words for `aivory mcp tools` ("read-only, idempotent"; "-" for none).
 * They are the server's claims, not checked: approvals never trust them.
 */
export function hintWords(annotations: McpToolAnnotations | null): string {
  if (annotations === null) return '-';
  const words = [
    annotations.readOnlyHint === true ? 'read-only' : null,
    annotations.destructiveHint === true ? 'destructive' : null,
    annotations.idempotentHint === true ? 'idempotent' : null,
    annotations.openWorldHint === true ? 'open-world' : null,
  ].filter((word): word is string => word !== null);
  return words.length === 0 ? '-' : words.join(', ');
}
