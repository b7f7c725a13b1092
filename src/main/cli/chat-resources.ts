/**
 * `aivory chat --attach-resource SERVICE URI`: an MCP resource (or a filled-in template URI) read
 * from one of the user's services and attached to the message, as the composer's "attach" does:
 * `resource-attachments.ts` makes the files, which then go the way of `--attach` files.
 */
import { AivoryError } from '../../shared/errors';
import { MAX_URL_CHARS } from '../../shared/ipc/limits';
import { boundedLine } from '../../shared/untrusted-text';
import type { McpServices } from '../services/mcp/mcp-services';
import type { ResourceFile } from '../services/mcp/resource-attachments';
import { resourceFiles } from '../services/mcp/resource-attachments';
import { shellWord } from './cli-args';
import { usageError } from './cli-errors';

export const ATTACH_RESOURCE_FLAG = '--attach-resource';
/** Characters of a name or URI repeated in an error (they may be long or hold control codes). */
const SHOWN_CHARS = 200;
/** Characters of an error's own message (the server's part is already cut by the adapter). */
const MESSAGE_CHARS = 600;

/** One `--attach-resource SERVICE URI`. */
export interface ResourceRequest {
  service: string;
  uri: string;
}

/**
 * Takes every `--attach-resource SERVICE URI` (or `--attach-resource=SERVICE URI`) out of the
 * arguments, because node:util `parseArgs` gives an option one value only. The two tokens after
 * the flag are its values whatever they look like; tokens after `--` are left alone.
 */
export function takeResourceFlags(argv: readonly string[]): {
  argv: string[];
  resources: ResourceRequest[];
} {
  const rest: string[] = [];
  const resources: ResourceRequest[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index] ?? '';
    if (token === '--') {
      rest.push(...argv.slice(index));
      break;
    }
    let service: string | undefined;
    let uri: string | undefined;
    if (token === ATTACH_RESOURCE_FLAG) {
      [service, uri] = [argv[index + 1], argv[index + 2]];
      index += 2;
    } else if (token.startsWith(`${ATTACH_RESOURCE_FLAG}=`)) {
      [service, uri] = [token.slice(ATTACH_RESOURCE_FLAG.length + 1), argv[index + 1]];
      index += 1;
    } else {
      rest.push(token);
      continue;
    }
    resources.push(checkedRequest(service, uri));
  }
  return { argv: rest, resources };
}

function checkedRequest(service: string | undefined, uri: string | undefined): ResourceRequest {
  const usage = `${ATTACH_RESOURCE_FLAG} SERVICE URI (the service's name as in aivory mcp list, then the resource's URI)`;
  if (service === undefined || uri === undefined)
    throw usageError(`${ATTACH_RESOURCE_FLAG} takes two values: ${usage}.`);
  // Trimmed like the names of --mcp.
  const name = service.trim();
  if (name === '') throw usageError(`${ATTACH_RESOURCE_FLAG} needs a service name: ${usage}.`);
  if (uri.trim() === '') throw usageError(`${ATTACH_RESOURCE_FLAG} needs a URI: ${usage}.`);
  if (uri.length > MAX_URL_CHARS)
    throw usageError(
      `${ATTACH_RESOURCE_FLAG}: the URI has ${uri.length} characters; at most ${MAX_URL_CHARS}.`,
    );
  return { service: name, uri };
}

/**
 * The files of each requested resource, in order. The service must exist and be enabled (the
 * composer offers only enabled ones); every failure names the flag, the service and the URI.
 * The upload caps of each resource are checked here, those of the whole message by the chat
 * service, with the `--attach` files.
 */
export async function readResourceAttachments(
  mcp: McpServices,
  requests: readonly ResourceRequest[],
  signal: AbortSignal,
): Promise<ResourceFile[]> {
  const files: ResourceFile[] = [];
  for (const request of requests) {
    const where = `${ATTACH_RESOURCE_FLAG} ${shown(request.service)} ${shown(request.uri)}`;
    try {
      const service = mcp.get(request.service);
      if (!service.enabled)
        throw new AivoryError(
          'invalid-input',
          `the MCP service is disabled (aivory mcp enable ${shellWord(service.name)})`,
        );
      const contents = await mcp.readResourceContents(service.id, request.uri, signal);
      files.push(...resourceFiles(contents, request.uri));
    } catch (error) {
      if (!(error instanceof AivoryError)) throw error;
      const message = boundedLine(error.message, MESSAGE_CHARS);
      const said =
        error.code === 'not-found'
          ? `${message.replace(/\.$/, '')} (see aivory mcp list).`
          : message;
      throw new AivoryError(error.code, `${where}: ${said}`, { cause: error });
    }
  }
  return files;
}

/** A user-given name or URI as it appears in an error: one line, bounded, quoted. */
function shown(text: string): string {
  return JSON.stringify(boundedLine(text, SHOWN_CHARS));
}
