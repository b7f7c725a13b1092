/**
 * MCP services, their tool snapshots (accepted / latest), per-tool approval policies and
 * "allow for this conversation" answers, on the shared connection.
 */
import { z } from 'zod';
import { AivoryError } from '../../../shared/errors';
import { mcpToolInfoSchema } from '../../../shared/ipc/mcp-tool-info-schema';
import type {
  McpApprovalPolicy,
  McpService,
  McpTestState,
  McpToolInfo,
  McpToolRecord,
  McpTransportKind,
} from '../../../shared/mcp';
import type { McpRoot } from '../../../shared/mcp-roots';
import type {
  Clock,
  McpServerFeatures,
  McpServicePatch,
  McpStore,
  NewMcpService,
} from '../../core/ports';
import { listRoots, setRoots } from './mcp-roots-store';
import type { Statements } from './statements';

interface ServiceRow {
  id: string;
  name: string;
  icon: string;
  description: string;
  transport: string;
  url: string | null;
  command: string | null;
  args: string;
  env: string;
  headers: string;
  enabled: number;
  timeout_ms: number;
  max_timeout_ms: number;
  test_state: string;
  test_message: string | null;
  tested_at: number | null;
  synced_at: number | null;
  stale: number;
  oauth: string | null;
  created_at: number;
  updated_at: number;
}

interface ToolRow {
  service_id: string;
  name: string;
  accepted: string | null;
  latest: string | null;
  approval: string;
}

const oauthConfig = z.lazy(() =>
  z.object({
    grant: z.enum(['authorization_code', 'client_credentials']),
    clientId: z.string().nullable(),
    clientSecretRef: z.string().nullable(),
    clientKeyRef: z.string().nullable().default(null),
    keyAlgorithm: z.string().nullable().default(null),
    trustedOrigins: z.array(z.string()).default([]),
  }),
);
const secretEntries = z.lazy(() => z.array(z.object({ name: z.string(), secretRef: z.string() })));
const envEntries = z.lazy(() =>
  z.array(
    z.object({
      name: z.string(),
      secretRef: z.string(),
      loaderAllowed: z.literal(true).optional(),
    }),
  ),
);
const toolInfo = mcpToolInfoSchema;
const TRANSPORTS: readonly McpTransportKind[] = ['streamable-http', 'sse', 'stdio'];
const TEST_STATES: readonly McpTestState[] = ['untested', 'connected', 'error'];
const POLICIES: readonly McpApprovalPolicy[] = [
  'default',
  'ask',
  'allow',
  'allow-even-after-web',
  'deny',
];

export class SqliteMcpStore implements McpStore {
  constructor(
    private readonly sql: Statements,
    private readonly clock: Clock,
  ) {}

  listServices(): McpService[] {
    return this.sql
      .all<ServiceRow>('SELECT * FROM mcp_services ORDER BY created_at, rowid')
      .map(toService);
  }

  getService(idOrName: string): McpService | null {
    const row = this.sql.get<ServiceRow>(
      'SELECT * FROM mcp_services WHERE id = ? OR name = ? ORDER BY id = ? DESC LIMIT 1',
      idOrName,
      idOrName,
      idOrName,
    );
    return row === undefined ? null : toService(row);
  }

  getServerFeatures(serviceId: string): McpServerFeatures | null {
    const row = this.sql.get<{ server_features: string | null }>(
      'SELECT server_features FROM mcp_services WHERE id = ?',
      serviceId,
    );
    if (row?.server_features == null) return null;
    try {
      const parsed = JSON.parse(row.server_features) as Record<string, unknown>;
      return {
        tools: parsed['tools'] === true,
        prompts: parsed['prompts'] === true,
        resources: parsed['resources'] === true,
        resourceSubscribe: parsed['resourceSubscribe'] === true,
        completions: parsed['completions'] === true,
      };
    } catch {
      return null;
    }
  }

  setServerFeatures(serviceId: string, features: McpServerFeatures): void {
    this.sql.run(
      'UPDATE mcp_services SET server_features = ? WHERE id = ?',
      JSON.stringify({
        tools: features.tools,
        prompts: features.prompts,
        resources: features.resources,
        resourceSubscribe: features.resourceSubscribe,
        completions: features.completions,
      }),
      serviceId,
    );
  }

  createService(input: NewMcpService): McpService {
    const now = this.clock.now();
    try {
      this.sql.run(
        `INSERT INTO mcp_services (id, name, icon, description, transport, url, command, args, env,
           headers, timeout_ms, max_timeout_ms, oauth, created_at, updated_at)
         VALUES (@id, @name, @icon, @description, @transport, @url, @command, @args, @env,
           @headers, @timeoutMs, @maxTimeoutMs, @oauth, @now, @now)`,
        {
          ...input,
          args: JSON.stringify(input.args),
          env: JSON.stringify(input.env),
          headers: JSON.stringify(input.headers),
          oauth: input.oauth === null ? null : JSON.stringify(input.oauth),
          now,
        },
      );
    } catch (error) {
      if (error instanceof Error && /UNIQUE/.test(error.message)) {
        throw new AivoryError('invalid-input', `An MCP service named "${input.name}" exists.`);
      }
      throw error;
    }
    return this.mustGet(input.id);
  }

  updateService(id: string, patch: McpServicePatch): McpService {
    const current = this.mustGet(id);
    const next = { ...current, ...patch };
    this.sql.run(
      `UPDATE mcp_services SET enabled = ?, test_state = ?, test_message = ?, tested_at = ?,
         synced_at = ?, stale = ?, timeout_ms = ?, max_timeout_ms = ?, updated_at = ? WHERE id = ?`,
      next.enabled ? 1 : 0,
      next.testState,
      next.testMessage,
      next.testedAt,
      next.syncedAt,
      next.stale ? 1 : 0,
      next.timeoutMs,
      next.maxTimeoutMs,
      this.clock.now(),
      id,
    );
    return this.mustGet(id);
  }

  updateConfig(id: string, config: Omit<NewMcpService, 'id'>): McpService {
    try {
      const changed = this.sql.run(
        `UPDATE mcp_services SET name = @name, icon = @icon, description = @description,
           transport = @transport, url = @url, command = @command, args = @args, env = @env,
           headers = @headers, timeout_ms = @timeoutMs, max_timeout_ms = @maxTimeoutMs,
           oauth = @oauth, updated_at = @now WHERE id = @id`,
        {
          ...config,
          id,
          args: JSON.stringify(config.args),
          env: JSON.stringify(config.env),
          headers: JSON.stringify(config.headers),
          oauth: config.oauth === null ? null : JSON.stringify(config.oauth),
          now: this.clock.now(),
        },
      ).changes;
      if (changed === 0) throw new AivoryError('not-found', `No MCP service with id ${id}.`);
    } catch (error) {
      if (error instanceof Error && /UNIQUE/.test(error.message)) {
        throw new AivoryError('invalid-input', `An MCP service named "${config.name}" exists.`);
      }
      throw error;
    }
    return this.mustGet(id);
  }

  deleteService(id: string): boolean {
    return this.sql.run('DELETE FROM mcp_services WHERE id = ?', id).changes > 0;
  }

  listTools(serviceId: string): McpToolRecord[] {
    return this.sql
      .all<ToolRow>('SELECT * FROM mcp_tools WHERE service_id = ? ORDER BY name', serviceId)
      .map(toTool);
  }

  /** Replaces the `latest` snapshot; tools gone from it keep their row only if accepted. */
  saveLatest(serviceId: string, tools: readonly McpToolInfo[]): void {
    this.sql.write(() => {
      this.sql.run('UPDATE mcp_tools SET latest = NULL WHERE service_id = ?', serviceId);
      for (const tool of tools) {
        this.sql.run(
          `INSERT INTO mcp_tools (service_id, name, latest) VALUES (?, ?, ?)
           ON CONFLICT (service_id, name) DO UPDATE SET latest = excluded.latest`,
          serviceId,
          tool.name,
          JSON.stringify(tool),
        );
      }
      this.sql.run(
        'DELETE FROM mcp_tools WHERE service_id = ? AND latest IS NULL AND accepted IS NULL',
        serviceId,
      );
    });
  }

  /** Accepts the latest snapshot as a whole: removed tools go, new and changed ones count. */
  acceptLatest(serviceId: string): void {
    this.sql.write(() => {
      this.sql.run('DELETE FROM mcp_tools WHERE service_id = ? AND latest IS NULL', serviceId);
      this.sql.run('UPDATE mcp_tools SET accepted = latest WHERE service_id = ?', serviceId);
    });
  }

  setToolApproval(serviceId: string, tool: string, policy: McpApprovalPolicy): void {
    const sql = 'UPDATE mcp_tools SET approval = ? WHERE service_id = ? AND name = ?';
    if (this.sql.run(sql, policy, serviceId, tool).changes === 0) {
      throw new AivoryError('not-found', `The service has no tool named "${tool}".`);
    }
  }

  allowForConversation(conversationId: string, serviceId: string, tool: string): void {
    this.sql.run(
      `INSERT OR IGNORE INTO mcp_conversation_approvals (conversation_id, service_id, tool_name)
       VALUES (?, ?, ?)`,
      conversationId,
      serviceId,
      tool,
    );
  }

  isAllowedForConversation(conversationId: string, serviceId: string, tool: string): boolean {
    return (
      this.sql.get(
        `SELECT 1 FROM mcp_conversation_approvals
         WHERE conversation_id = ? AND service_id = ? AND tool_name = ?`,
        conversationId,
        serviceId,
        tool,
      ) !== undefined
    );
  }

  listRoots(serviceId: string): McpRoot[] {
    return listRoots(this.sql, serviceId);
  }

  setRoots(serviceId: string, roots: readonly McpRoot[]): void {
    setRoots(this.sql, serviceId, roots);
  }

  private mustGet(id: string): McpService {
    const row = this.sql.get<ServiceRow>('SELECT * FROM mcp_services WHERE id = ?', id);
    if (row === undefined) throw new AivoryError('not-found', `No MCP service with id ${id}.`);
    return toService(row);
  }
}

function damaged(column: string): AivoryError {
  return new AivoryError('internal', `The stored value of ${column} is not valid.`);
}

function parse<T>(schema: z.ZodType<T>, text: string, column: string): T {
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    throw damaged(column);
  }
}

function pick<T extends string>(values: readonly T[], value: string, column: string): T {
  const found = values.find((candidate) => candidate === value);
  if (found === undefined) throw damaged(column);
  return found;
}

function toService(row: ServiceRow): McpService {
  return {
    id: row.id,
    name: row.name,
    icon: row.icon,
    description: row.description,
    transport: pick(TRANSPORTS, row.transport, 'mcp_services.transport'),
    url: row.url,
    command: row.command,
    args: parse(z.array(z.string()), row.args, 'mcp_services.args'),
    env: parse(envEntries, row.env, 'mcp_services.env'),
    headers: parse(secretEntries, row.headers, 'mcp_services.headers'),
    enabled: row.enabled === 1,
    timeoutMs: row.timeout_ms,
    maxTimeoutMs: row.max_timeout_ms,
    testState: pick(TEST_STATES, row.test_state, 'mcp_services.test_state'),
    testMessage: row.test_message,
    testedAt: row.tested_at,
    syncedAt: row.synced_at,
    stale: row.stale === 1,
    oauth: row.oauth === null ? null : parse(oauthConfig, row.oauth, 'mcp_services.oauth'),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toTool(row: ToolRow): McpToolRecord {
  return {
    serviceId: row.service_id,
    name: row.name,
    accepted: row.accepted === null ? null : parse(toolInfo, row.accepted, 'mcp_tools.accepted'),
    latest: row.latest === null ? null : parse(toolInfo, row.latest, 'mcp_tools.latest'),
    approval: pick(POLICIES, row.approval, 'mcp_tools.approval'),
  };
}
