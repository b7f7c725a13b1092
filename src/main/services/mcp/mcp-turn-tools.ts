/**
 * MCP tools as the model sees them: `<service>__<tool>` with the accepted snapshot's schema, and
 * a call path that asks for approval first (per tool: ask / this conversation / always / deny;
 * by default read-only tools run and the rest ask; in a tainted turn every call asks unless the
 * user chose "always, even after web content"), then calls the server with the service's
 * progress-aware timeout, converting the result (text capped, images saved as artifacts and
 * handed to the orchestrator, which shows them to a vision model).
 */
import type { McpService, McpToolInfo } from '../../../shared/mcp';
import { McpError, McpSignInRequired, USER_APPROVAL_WAIT_MS } from '../../core/ports';
import type {
  ApprovalAnswer,
  ArtifactSink,
  ChatImage,
  McpStore,
  Tool,
  ToolContext,
  ToolOutput,
} from '../../core/ports';
import { untrustedArgumentCheck } from '../../tools/arguments/argument-check';
import type { TurnMcpTools } from '../chat-service';
import { rasterImageType } from '../mime-types';
import { namespaceTools } from './mcp-naming';
import type { McpServices } from './mcp-services';
import { describeFailure } from './mcp-failure';
import { saveResourceBlobs } from './mcp-resource-files';
import { checkStructured } from './mcp-structured';

/** Result text the model gets at most (characters). */
export const MCP_MAX_OUTPUT_CHARS = 50_000;
const MAX_DESCRIPTION_CHARS = 4000;
/** Why an MCP call asks in a tainted turn (the approval card and CLI show it). */
export const TAINTED_CALL_REASON =
  'this call comes after the turn read untrusted content (web pages, search results, MCP or program output), so it is asked whatever its usual approval';

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

export interface McpTurnToolsDependencies {
  services: McpServices;
  store: McpStore;
  artifacts: ArtifactSink;
  /** Conversation whose artifact folder is used outside a conversation. */
  scratchConversationId: string;
}

export interface McpToolEntry {
  tool: Tool;
  serviceId: string;
  serviceName: string;
  /** The tool's own name on its server. */
  mcpTool: string;
  /**
   * The user's own call (`aivory mcp call`): no approval prompt — running it is the approval —
   * but a tool whose policy is `deny` still refuses.
   */
  callAsUser: (args: Record<string, unknown>, context: ToolContext) => Promise<ToolOutput>;
}

/** Every tool models may call now, named deterministically around `reserved` names. */
export function mcpTurnTools(dependencies: McpTurnToolsDependencies): TurnMcpTools {
  return {
    tools: (reserved) => Promise.resolve(buildEntries(dependencies, reserved)),
  };
}

export function buildEntries(
  dependencies: McpTurnToolsDependencies,
  reserved: ReadonlySet<string>,
): McpToolEntry[] {
  const callable = dependencies.services
    .callable()
    .flatMap(({ service, tools }) =>
      tools.flatMap((record) =>
        record.accepted
          ? [{ service, info: withOutputSchema(record.accepted, record.latest) }]
          : [],
      ),
    );
  const names = namespaceTools(
    callable.map(({ service, info }) => ({
      serviceId: service.id,
      serviceName: service.name,
      tool: info.name,
    })),
    reserved,
  );
  return callable.map(({ service, info }, index) => {
    const name = names[index] ?? info.name;
    return {
      tool: toTool(dependencies, service, info, name),
      serviceId: service.id,
      serviceName: service.name,
      mcpTool: info.name,
      // The user's own call: a sign-in the server asks for runs (their browser), then the call
      // once more.
      callAsUser: (args, context) =>
        dependencies.services.asUser(service.id, context.signal, () =>
          invokeMcpTool(dependencies, service, info, name, args, context, 'user'),
        ),
    };
  });
}

/**
 * The accepted snapshot with the latest output schema: the schema only checks results (the model
 * never sees it, so it is not part of the review), and a snapshot saved before schemas were kept
 * gains it at the next sync.
 */
function withOutputSchema(accepted: McpToolInfo, latest: McpToolInfo | null): McpToolInfo {
  const outputSchema = latest?.outputSchema ?? accepted.outputSchema;
  return outputSchema === undefined ? accepted : { ...accepted, outputSchema };
}

function toTool(
  dependencies: McpTurnToolsDependencies,
  service: McpService,
  info: McpToolInfo,
  name: string,
): Tool {
  const description =
    `${info.description}\n\n(Tool "${info.name}" of the MCP service "${service.name}": ${service.description})`.slice(
      0,
      MAX_DESCRIPTION_CHARS,
    );
  const inputSchema = { type: 'object', ...info.inputSchema };
  return {
    name,
    description,
    inputSchema,
    // The service's own deadline (extended by progress) runs inside; this outer one also covers
    // the approval prompt.
    timeoutMs: service.maxTimeoutMs + USER_APPROVAL_WAIT_MS + 5_000,
    // The server's schema is untrusted: checked within bounds, ignored when it cannot be.
    validate: untrustedArgumentCheck(inputSchema),
    // Whatever a server returns is untrusted content: a call taints the turn.
    untrustedOutput: {},
    execute: (args, context) =>
      invokeMcpTool(
        dependencies,
        service,
        info,
        name,
        args as Record<string, unknown>,
        context,
        'model',
      ),
  };
}

/**
 * Approval (a model's call; the user's own call only checks for `deny`), then the call; every
 * failure is a tool error the model can read.
 */
async function invokeMcpTool(
  dependencies: McpTurnToolsDependencies,
  service: McpService,
  info: McpToolInfo,
  toolName: string,
  args: Record<string, unknown>,
  context: ToolContext,
  caller: 'model' | 'user',
): Promise<ToolOutput> {
  const refusal =
    caller === 'user'
      ? userCallRefusal(dependencies, service, info)
      : await approve(dependencies, service, info, toolName, args, context);
  // Refused before the server was reached: nothing untrusted was read, the turn is not tainted.
  if (refusal !== null) return { content: refusal, isError: true, untrustedSources: [] };
  // A server's elicitation during this call is this caller's to answer (or declined).
  const leave = dependencies.services.elicitation.enter(service.id, context.elicit);
  // So is a sampling request (the user approves, the turn's model answers), or it is refused.
  const leaveSampling = dependencies.services.sampling.enter(service.id, context.sample);
  try {
    // The service's shared session: a server's state (and its session-scoped resources) lasts
    // across rounds and turns; a session found gone is replaced and the call sent once more.
    const result = await dependencies.services.withSession(service, context.signal, (session) =>
      session.callTool(info.name, args, {
        signal: context.signal,
        timeoutMs: service.timeoutMs,
        maxTotalTimeoutMs: service.maxTimeoutMs,
        maxOutputChars: MCP_MAX_OUTPUT_CHARS,
        ...(context.onProgress ? { onProgress: context.onProgress } : {}),
      }),
    );
    const conversation = context.conversationId ?? dependencies.scratchConversationId;
    const artifacts = [];
    /** The raster images, typed from their bytes, for a vision model (the orchestrator bounds). */
    const images: ChatImage[] = [];
    for (const [index, image] of result.images.entries()) {
      // Named from the bytes, never from the server's declared type (`image/bat` → `.bat`).
      const { mime, extension } = rasterImageType(image.data);
      if (extension !== 'bin') images.push({ mime, data: image.data });
      artifacts.push(
        await dependencies.artifacts.save(
          conversation,
          `${service.name}-${info.name}-${index + 1}.${extension}`,
          image.data,
          mime,
        ),
      );
    }
    // Embedded binary resources were only described in the text: saved, they can be used.
    const files = await saveResourceBlobs(
      dependencies.artifacts,
      conversation,
      result.blobs ?? [],
      `${service.name}-${info.name}`,
    );
    artifacts.push(...files.artifacts);
    images.push(...files.images);
    const { structured, note } = checkStructured(info, result);
    const text = [result.text === '' ? '(no text output)' : result.text, ...files.notes].join('\n');
    return {
      content: note === null ? text : `${text}\n\n${note}`,
      isError: result.isError,
      ...(artifacts.length > 0 ? { artifacts } : {}),
      ...(images.length > 0 ? { images } : {}),
      ...(structured ? { structured } : {}),
    };
  } catch (error) {
    if (context.signal.aborted && !(error instanceof McpError && error.kind === 'timeout'))
      throw error;
    // The user's own call signs in and tries again (McpServices.asUser); a model's reads why.
    if (caller === 'user' && error instanceof McpSignInRequired) throw error;
    return { content: `MCP service "${service.name}": ${describeFailure(error)}`, isError: true };
  } finally {
    leaveSampling();
    leave();
  }
}

/** The user's own call is its approval; only a tool set to `deny` refuses it. */
function userCallRefusal(
  dependencies: McpTurnToolsDependencies,
  service: McpService,
  info: McpToolInfo,
): string | null {
  const policy = dependencies.store
    .listTools(service.id)
    .find((record) => record.name === info.name)?.approval;
  return policy === 'deny'
    ? `${info.name} of "${service.name}" is blocked: its approval policy is "deny" (change it in settings → MCP services, or with aivory mcp approval).`
    : null;
}

/**
 * Null when the call may go ahead; otherwise the refusal the model reads. `info` may be a
 * service-level action without a tool row (`resources/read`): it follows the `default` policy,
 * and "always" is remembered for the conversation only (there is no row to save it on).
 */
export async function approve(
  dependencies: McpTurnToolsDependencies,
  service: McpService,
  info: McpToolInfo,
  toolName: string,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<string | null> {
  const { store } = dependencies;
  const policy = store.listTools(service.id).find((record) => record.name === info.name)?.approval;
  if (policy === 'deny') return `The user has blocked ${toolName} (settings → MCP services).`;
  if (policy === 'allow-even-after-web') return null;
  const taint = context.taint?.tainted === true ? context.taint.reasons : null;
  if (taint === null) {
    if (policy === 'allow') return null;
    if (policy !== 'ask' && info.annotations?.readOnlyHint === true) return null;
    if (
      context.conversationId !== null &&
      store.isAllowedForConversation(context.conversationId, service.id, info.name)
    )
      return null;
  }
  // A tainted turn asks whatever the hint, saved policy or conversation allowance: the call may
  // have been written by the untrusted content, and its arguments may carry the turn's data.
  if (!context.approve) {
    return taint === null
      ? `${toolName} needs the user's approval and nobody could be asked (non-interactive run: use --approve all, or allow the tool in settings).`
      : `${toolName} was not called: ${TAINTED_CALL_REASON}, and nobody could be asked (non-interactive run: use --approve all, or set the tool to "always, even after web content").`;
  }
  const answer = await askWithTimeout(context, {
    kind: 'mcp',
    toolName,
    service: service.name,
    tool: info.name,
    arguments: args,
    conversationId: context.conversationId,
    readOnlyHint: info.annotations?.readOnlyHint === true,
    destructiveHint: info.annotations?.destructiveHint === true,
    ...(taint === null
      ? {}
      : { reason: `${capitalised(TAINTED_CALL_REASON)}.`, taint: [...taint] }),
  });
  if (answer === 'deny') return `The user denied this call of ${toolName}.`;
  if (answer === 'always' && policy !== undefined)
    store.setToolApproval(service.id, info.name, 'allow');
  const remember = answer === 'conversation' || (answer === 'always' && policy === undefined);
  if (remember && context.conversationId !== null)
    store.allowForConversation(context.conversationId, service.id, info.name);
  return null;
}

async function askWithTimeout(
  context: ToolContext,
  request: Parameters<NonNullable<ToolContext['approve']>>[0],
): Promise<ApprovalAnswer> {
  const signal = AbortSignal.any([context.signal, AbortSignal.timeout(USER_APPROVAL_WAIT_MS)]);
  try {
    return await (context.approve?.(request, signal) ?? Promise.resolve('deny'));
  } catch {
    return 'deny';
  }
}
