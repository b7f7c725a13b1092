/**
 * The model's way to read a resource of an MCP service its turn already uses: one tool per such
 * service (`<service>__read_resource`, named like the service's tools and counted like them in
 * the turn's budgets), offered beside that service's tools only. A tool result's resource link
 * (`[resource link] demo://…`, session-scoped ones included: the service's session is shared
 * across rounds and turns) is read with `resources/read` on that same session.
 *
 * The read is a call like any other MCP call: it goes through the approval rules (the `default`
 * policy of a read-only action: runs untainted, asks in a tainted turn, honours the conversation's
 * allowance), it taints the turn (what a server returns is untrusted), text is capped, and binary
 * parts are saved as artifacts (typed from their bytes; raster images also go to a vision model,
 * bounded by the orchestrator like tool-result images).
 */
import type { McpService, McpToolInfo } from '../../../shared/mcp';
import { McpError, USER_APPROVAL_WAIT_MS } from '../../core/ports';
import type { Tool, ToolContext, ToolOutput } from '../../core/ports';
import { builtInArgumentCheck } from '../../tools/arguments/argument-check';
import type { McpTurnToolsDependencies } from './mcp-turn-tools';
import { approve, MCP_MAX_OUTPUT_CHARS } from './mcp-turn-tools';
import { namespaceTools } from './mcp-naming';
import { describeFailure } from './mcp-failure';
import { saveResourceBlobs } from './mcp-resource-files';

/** The reader's own name on the service's side (what the name is built from). */
export const READ_RESOURCE_TOOL = 'read_resource';
/** What approvals and the conversation's allowance call a resource read. */
export const RESOURCE_READ_ACTION = 'resources/read';
/** Longest URI the model may ask for. */
const MAX_URI_CHARS = 2000;

const SCHEMA = JSON.stringify({
  type: 'object',
  properties: {
    uri: {
      type: 'string',
      description:
        'The resource URI, exactly as the service gave it (a resource link in a tool result, or a resource it lists).',
      minLength: 1,
      maxLength: MAX_URI_CHARS,
    },
  },
  required: ['uri'],
  additionalProperties: false,
});

/** What approval looks up for a read: no tool row, read-only by nature. */
const READ_ACTION_INFO: McpToolInfo = {
  name: RESOURCE_READ_ACTION,
  description: '',
  inputSchema: {},
  annotations: { readOnlyHint: true },
};

export function resourceReaderTool(
  dependencies: McpTurnToolsDependencies,
  service: McpService,
  name: string,
): Tool {
  const check = builtInArgumentCheck(SCHEMA);
  return {
    name,
    description:
      `Reads a resource of the MCP service "${service.name}" by its URI: a resource link one of its tools returned ("[resource link] <uri>"), or a resource the service lists. Text comes back as the result; binary contents are saved as files.\n\n(${service.description})`.slice(
        0,
        4000,
      ),
    inputSchema: JSON.parse(SCHEMA) as Record<string, unknown>,
    timeoutMs: service.maxTimeoutMs + USER_APPROVAL_WAIT_MS + 5_000,
    validate: check,
    // The server's answer is untrusted like any tool result; the reason names the URI.
    untrustedOutput: { sources: (args) => [String(args['uri'] ?? '')] },
    execute: (args, context) =>
      readResource(dependencies, service, name, (args as { uri: string }).uri, context),
  };
}

async function readResource(
  dependencies: McpTurnToolsDependencies,
  service: McpService,
  toolName: string,
  uri: string,
  context: ToolContext,
): Promise<ToolOutput> {
  // The service may have been switched off or removed since the turn's tools were built.
  if (!dependencies.services.callable().some((entry) => entry.service.id === service.id)) {
    return {
      content: `MCP service "${service.name}" is no longer available (switched off or removed).`,
      isError: true,
      untrustedSources: [],
    };
  }
  const refusal = await approve(
    dependencies,
    service,
    READ_ACTION_INFO,
    toolName,
    { uri },
    context,
  );
  if (refusal !== null) return { content: refusal, isError: true, untrustedSources: [] };
  try {
    // The service's shared session: a session-scoped resource made in an earlier round is there.
    const contents = await dependencies.services.withSession(service, context.signal, (session) =>
      session.readResourceContents(uri, context.signal),
    );
    const conversation = context.conversationId ?? dependencies.scratchConversationId;
    const { artifacts, notes, images } = await saveResourceBlobs(
      dependencies.artifacts,
      conversation,
      contents.blobs,
      uri,
    );
    const text = [capped(contents.text), ...notes].filter((line) => line !== '').join('\n');
    return {
      content: text === '' ? '(the resource is empty)' : text,
      ...(artifacts.length > 0 ? { artifacts } : {}),
      ...(images.length > 0 ? { images } : {}),
    };
  } catch (error) {
    if (context.signal.aborted && !(error instanceof McpError && error.kind === 'timeout'))
      throw error;
    return { content: `MCP service "${service.name}": ${describeFailure(error)}`, isError: true };
  }
}

function capped(text: string): string {
  if (text.length <= MCP_MAX_OUTPUT_CHARS) return text;
  const cut = text.length - MCP_MAX_OUTPUT_CHARS;
  return `${text.slice(0, MCP_MAX_OUTPUT_CHARS)}\n\n[… output truncated: ${cut.toLocaleString('en-US')} characters cut (limit ${MCP_MAX_OUTPUT_CHARS.toLocaleString('en-US')})]`;
}

/**
 * The readers of `serviceIds` (callable services whose server offers resources, or has not said
 * yet), in that order. Every callable tool and
 * every callable service's reader are named together, tools first, so a server tool that is itself
 * called `read_resource` keeps its plain name and a reader's name does not depend on which
 * services a turn picked.
 */
export function buildResourceReaders(
  dependencies: McpTurnToolsDependencies,
  serviceIds: readonly string[],
  reserved: ReadonlySet<string>,
): { tool: Tool; serviceId: string; serviceName: string }[] {
  const callable = dependencies.services.callable();
  const tools = callable.flatMap(({ service, tools: records }) =>
    records.map((record) => ({
      serviceId: service.id,
      serviceName: service.name,
      tool: record.name,
    })),
  );
  const readers = callable.map(({ service }) => ({
    serviceId: service.id,
    serviceName: service.name,
    tool: READ_RESOURCE_TOOL,
  }));
  const names = namespaceTools([...tools, ...readers], reserved).slice(tools.length);
  return serviceIds.flatMap((id) => {
    const index = callable.findIndex((entry) => entry.service.id === id);
    const entry = callable[index];
    const name = names[index];
    if (entry === undefined || name === undefined) return [];
    // A server that said it has no resources gets no reader (the names stay as they were).
    if (!dependencies.services.offersResources(id)) return [];
    return [
      {
        tool: resourceReaderTool(dependencies, entry.service, name),
        serviceId: id,
        serviceName: entry.service.name,
      },
    ];
  });
}
