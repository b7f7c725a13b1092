/**
 * The wire contract of every route as zod schemas (requests are validated with them) and as
 * JSON Schemas (`ROUTE_SCHEMAS`, for sandbox/README.md and the contract test). A compile-time
 * check at the bottom keeps the response schemas identical to the service's TypeScript types.
 */
import { z } from 'zod';
import { UPLOAD_DIRECTORIES } from '../sandbox-service';
import type {
  ExecRequest,
  ExecResult,
  HealthReport,
  OutputFile,
  SessionInfo,
  WorkspaceEntry,
  WorkspaceReset,
} from '../sandbox-service';
import { CONVERSATION_ID_PATTERN, FILE_NAME_MAX_BYTES } from './input-checks';
import { HttpError } from './http-error';

/** Code is source text; 1 MiB is far beyond any script a model writes in one call. */
export const CODE_MAX_BYTES = 1024 * 1024;

export const errorBodySchema = z.strictObject({
  error: z.strictObject({ code: z.string(), message: z.string() }),
});

export const healthReportSchema = z.strictObject({
  ok: z.boolean(),
  docker: z.boolean(),
  image: z.string(),
  image_present: z.boolean(),
  runc_version: z.string().nullable(),
  engine: z.enum(['docker', 'podman']).nullable(),
  engine_version: z.string().nullable(),
  runtime: z.string().nullable(),
  isolation: z.string().nullable(),
  warnings: z.array(z.string()),
  unsaved: z
    .array(
      z.strictObject({
        conversation_id: z.string(),
        error: z.string(),
        container_id: z.string(),
        kept_since: z.string().nullable(),
      }),
    )
    .optional(),
  sessions: z.number(),
  max_sessions: z.number(),
});

export const createSessionRequestSchema = z.strictObject({
  conversation_id: z
    .string()
    .regex(CONVERSATION_ID_PATTERN, 'must be 1-128 characters of A-Z a-z 0-9 _ . : -')
    .optional(),
});

export const resetDamagedRequestSchema = z.strictObject({
  conversation_id: z
    .string()
    .regex(CONVERSATION_ID_PATTERN, 'must be 1-128 characters of A-Z a-z 0-9 _ . : -'),
});

export const workspaceResetSchema = z.strictObject({
  conversation_id: z.string(),
  kept_as: z
    .array(z.string())
    .describe(
      'Where each damaged save is kept (a path on the sidecar host, or an S3 URL), newest first.',
    ),
});

export const sessionInfoSchema = z.strictObject({
  session_id: z.string(),
  conversation_id: z.string(),
  restored: z.boolean(),
  created: z.boolean(),
});

export const execRequestSchema = z.strictObject({
  session_id: z.string().describe('A session id from POST /sessions; any other string gets 404.'),
  code: z.string().max(CODE_MAX_BYTES).describe('Python source, at most 1 MiB of UTF-8.'),
  timeout_s: z
    .number()
    .optional()
    .describe('Seconds; default 120, clamped to [10, 600] and to SANDBOX_EXEC_TIMEOUT_CAP_MS.'),
});

export const outputFileSchema = z.strictObject({
  path: z.string().describe('Relative to /workspace, e.g. outputs/plot.png.'),
  size: z.number(),
  mime: z.string(),
});

export const execResultSchema = z.strictObject({
  status: z.enum(['ok', 'error', 'timeout']),
  stdout: z.string(),
  stderr: z.string(),
  error: z.string().nullable(),
  duration_ms: z.number(),
  outputs: z.array(outputFileSchema),
  stdout_truncated_bytes: z.number(),
  stderr_truncated_bytes: z.number(),
  worker_restarted: z.boolean(),
  workspace_notice: z
    .string()
    .optional()
    .describe(
      'Set when the container had stopped and /workspace was restored from its last save, or when the last save could not be read and an older one was restored: what happened to the files.',
    ),
});

export const workspaceEntrySchema = z.strictObject({
  path: z.string(),
  type: z.enum(['file', 'directory']),
  size: z.number(),
  mtime_ms: z.number(),
});

export const directoryListingSchema = z.strictObject({ entries: z.array(workspaceEntrySchema) });

export const interruptResultSchema = z.strictObject({ interrupted: z.boolean() });

export const uploadQuerySchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .describe(
      `One path component: no "/", "\\", NUL or control characters, not "." or "..", ` +
        `at most ${FILE_NAME_MAX_BYTES} UTF-8 bytes.`,
    ),
  dir: z
    .enum(UPLOAD_DIRECTORIES)
    .optional()
    .describe('Target directory under /workspace: uploads (default) or downloads (fetched files).'),
});

export const readQuerySchema = z.strictObject({
  path: z
    .string()
    .optional()
    .describe('Relative to /workspace (default ""): no leading "/", "..", "\\" or NUL.'),
});

/**
 * Validates a parsed JSON body; a mismatch is a 400 naming the offending fields (never their
 * values, which may be a megabyte of code).
 */
export function parseRequestBody<Output>(
  schema: z.ZodType<Output>,
  body: Record<string, unknown>,
): Output {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const details = result.error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.map(String).join('.');
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
  throw new HttpError(400, 'bad-request', `Invalid request body: ${details}`);
}

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input' });
}

export interface RouteResponseSchema {
  description: string;
  contentType?: string;
  schema?: JsonSchema;
}

/** One route's documented contract. Every route also answers 401 without a valid Bearer key. */
export interface RouteSchema {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  summary: string;
  query?: JsonSchema;
  requestBody?: { contentType: string; schema?: JsonSchema; description?: string };
  responses: Record<string, RouteResponseSchema>;
}

const JSON_TYPE = 'application/json';
const errorSchema = jsonSchema(errorBodySchema);

function errors(descriptions: Record<string, string>): Record<string, RouteResponseSchema> {
  const all: Record<string, string> = {
    '401': 'Missing or wrong Bearer key (the same answer on every path).',
    ...descriptions,
    '500': 'Unexpected failure; the message is generic and the real error is logged.',
  };
  return Object.fromEntries(
    Object.entries(all).map(([status, description]) => [
      status,
      { description, contentType: JSON_TYPE, schema: errorSchema },
    ]),
  );
}

const SESSION_PATH_404 = 'Unknown session, or a session id that is not [A-Za-z0-9_-]{1,64}.';

export type RouteKey =
  | 'GET /healthz'
  | 'POST /sessions'
  | 'POST /exec'
  | 'POST /sessions/{id}/files'
  | 'GET /sessions/{id}/files'
  | 'POST /sessions/{id}/interrupt'
  | 'DELETE /sessions/{id}'
  | 'POST /workspaces/reset-damaged';

/** Every route's contract, keyed by `METHOD /path`; the README's route table is written from it. */
export const ROUTE_SCHEMAS: Readonly<Record<RouteKey, RouteSchema>> = {
  'GET /healthz': {
    method: 'GET',
    path: '/healthz',
    summary: 'Health report; 200 even when ok is false (it is a report, not a probe verdict).',
    responses: {
      '200': {
        description: 'The report.',
        contentType: JSON_TYPE,
        schema: jsonSchema(healthReportSchema),
      },
      ...errors({}),
    },
  },
  'POST /sessions': {
    method: 'POST',
    path: '/sessions',
    summary: 'The live session of a conversation, restored from its archive or created.',
    requestBody: {
      contentType: JSON_TYPE,
      schema: jsonSchema(createSessionRequestSchema),
      description: 'An empty body counts as {}.',
    },
    responses: {
      '200': {
        description: 'An existing session.',
        contentType: JSON_TYPE,
        schema: jsonSchema(sessionInfoSchema),
      },
      '201': {
        description: 'A new (possibly restored) session.',
        contentType: JSON_TYPE,
        schema: jsonSchema(sessionInfoSchema),
      },
      ...errors({
        '400': 'Not JSON, not an object, unknown fields, or a bad conversation_id.',
        '413': 'Body over 2 MiB.',
        '409':
          'damaged-save: no save of the workspace can be read (kept as it is); POST /workspaces/reset-damaged starts it empty.',
        '429': 'SANDBOX_MAX_SESSIONS reached.',
        '503': 'Docker or the runner image is unavailable.',
      }),
    },
  },
  'POST /exec': {
    method: 'POST',
    path: '/exec',
    summary: 'Runs code in the session; ok, error and timeout are all results (200).',
    requestBody: { contentType: JSON_TYPE, schema: jsonSchema(execRequestSchema) },
    responses: {
      '200': {
        description: 'The result.',
        contentType: JSON_TYPE,
        schema: jsonSchema(execResultSchema),
      },
      ...errors({
        '400': 'Not JSON, not an object, unknown fields, code not a string or over 1 MiB.',
        '404': 'Unknown session.',
        '409': 'The session is already running code.',
        '413': 'Body over 2 MiB.',
        '503': 'Docker is unavailable.',
      }),
    },
  },
  'POST /sessions/{id}/files': {
    method: 'POST',
    path: '/sessions/{id}/files',
    summary: 'Uploads the raw body to /workspace/<dir>/<name> (dir: uploads or downloads).',
    query: jsonSchema(uploadQuerySchema),
    requestBody: {
      contentType: '*/*',
      description:
        'The file bytes, at most SANDBOX_MAX_UPLOAD_BYTES (default 40 MiB); chunked bodies are counted while streaming.',
    },
    responses: {
      '201': {
        description: 'The stored file.',
        contentType: JSON_TYPE,
        schema: jsonSchema(outputFileSchema),
      },
      ...errors({
        '400': 'Missing or bad name, or the body did not arrive completely.',
        '404': SESSION_PATH_404,
        '408': 'The body stalled (no byte for 60 s).',
        '413':
          'Content-Length or streamed bytes over SANDBOX_MAX_UPLOAD_BYTES; the connection is closed.',
      }),
    },
  },
  'GET /sessions/{id}/files': {
    method: 'GET',
    path: '/sessions/{id}/files',
    summary: 'Lists a workspace directory (JSON) or streams a workspace file (its bytes).',
    query: jsonSchema(readQuerySchema),
    responses: {
      '200': {
        description:
          'A directory as JSON, or a file as its bytes with Content-Type and Content-Length.',
        contentType: `${JSON_TYPE} | <the file's type>`,
        schema: jsonSchema(directoryListingSchema),
      },
      ...errors({ '400': 'Absolute path, "..", backslash or NUL.', '404': SESSION_PATH_404 }),
    },
  },
  'POST /sessions/{id}/interrupt': {
    method: 'POST',
    path: '/sessions/{id}/interrupt',
    summary: 'Interrupts the running code, if any (KeyboardInterrupt in the worker).',
    responses: {
      '200': {
        description: 'Whether something was running.',
        contentType: JSON_TYPE,
        schema: jsonSchema(interruptResultSchema),
      },
      ...errors({ '404': SESSION_PATH_404 }),
    },
  },
  'DELETE /sessions/{id}': {
    method: 'DELETE',
    path: '/sessions/{id}',
    summary: 'Removes the session and its container.',
    responses: {
      '204': { description: 'Removed; no body.' },
      ...errors({ '404': SESSION_PATH_404 }),
    },
  },
  'POST /workspaces/reset-damaged': {
    method: 'POST',
    path: '/workspaces/reset-damaged',
    summary:
      "The user's way out when no save of a conversation's /workspace can be read (POST /sessions answers 409 damaged-save): the damaged saves are kept aside, renamed .damaged-<time>, never deleted, and the next session starts with an empty /workspace.",
    requestBody: { contentType: JSON_TYPE, schema: jsonSchema(resetDamagedRequestSchema) },
    responses: {
      '200': {
        description: 'Set aside; where each save is kept.',
        contentType: JSON_TYPE,
        schema: jsonSchema(workspaceResetSchema),
      },
      ...errors({
        '400': 'Not JSON, not an object, unknown fields, or a bad conversation_id.',
        '409':
          'not-damaged: a save can be read, there is none, or a session is open; nothing was changed.',
        '413': 'Body over 2 MiB.',
      }),
    },
  },
};

/** Exact type equality (not mere assignability), so a field added on either side is caught. */
type Equals<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Fails to compile when a wire schema drifts from the service contract it documents. */
const schemasMatchServiceTypes: [
  Equals<z.infer<typeof healthReportSchema>, HealthReport>,
  Equals<z.infer<typeof sessionInfoSchema>, SessionInfo>,
  Equals<z.infer<typeof execRequestSchema>, ExecRequest>,
  Equals<z.infer<typeof execResultSchema>, ExecResult>,
  Equals<z.infer<typeof outputFileSchema>, OutputFile>,
  Equals<z.infer<typeof workspaceEntrySchema>, WorkspaceEntry>,
  Equals<z.infer<typeof workspaceResetSchema>, WorkspaceReset>,
] = [true, true, true, true, true, true, true];
void schemasMatchServiceTypes;
