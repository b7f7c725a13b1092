/**
 * MCP data that crosses boundaries (store ↔ services ↔ CLI/renderer). Plain data only; header
 * and environment values are never here in clear: they live in the SecretStore and appear masked.
 */
import { checkHttpUrl } from './http-url';

export type McpTransportKind = 'streamable-http' | 'sse' | 'stdio';

/** Tool hints as the server declared them (all optional; untrusted). */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One tool as listed by the server: what a snapshot stores. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: McpToolAnnotations | null;
  /**
   * The schema its `structuredContent` should match, when the server declares one. Not part of
   * the reviewed diff (the model never sees it): only results are checked against it.
   */
  outputSchema?: Record<string, unknown>;
}

export type McpTestState = 'untested' | 'connected' | 'error';

/**
 * Per tool: `default` asks unless the tool says it is read-only; `allow` is "always allow" except
 * in a turn that has read untrusted content (then every call asks); `allow-even-after-web` is
 * "always, even after web content".
 */
export type McpApprovalPolicy = 'default' | 'ask' | 'allow' | 'allow-even-after-web' | 'deny';

/** A header or environment variable: its name, and where its value is kept. */
export interface McpSecretEntry {
  name: string;
  secretRef: string;
}

/**
 * An environment variable of a local server: a secret entry, and for a loader variable
 * (`loader-env.ts`) whether the user allowed it for this service. Without the allowance the
 * launcher refuses to start the server with it.
 */
export interface McpEnvEntry extends McpSecretEntry {
  loaderAllowed?: true;
}

/**
 * How an HTTP service signs in with OAuth when it asks (401): the grant, and a client the user
 * registered with the authorization server beforehand (its secret in the SecretStore). Without a
 * client id, Aivory registers itself (Client ID Metadata Document or dynamic registration).
 */
export interface McpOAuthConfig {
  grant: 'authorization_code' | 'client_credentials';
  clientId: string | null;
  clientSecretRef: string | null;
  /** private_key_jwt: where the client's private key (PEM) is kept, and its JWS algorithm. */
  clientKeyRef: string | null;
  keyAlgorithm: string | null;
  /**
   * Other origins (scheme://host:port) on the service's own local host that its sign-in may use,
   * as the user allowed them — e.g. a local authorization server beside a local MCP server.
   * Without one, sign-in on a local host uses the service's own origin only.
   */
  trustedOrigins: string[];
}

/** How long an OAuth sign-in waits for the user to finish in the browser. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** What the settings card and `aivory mcp list` show about a service's OAuth sign-in. */
export interface McpSignInStatus {
  signedIn: boolean;
  /** The authorization server's address (origin). */
  authServer: string | null;
  /** When the access token expires (ms since the epoch), when the server said. */
  expiresAt: number | null;
  /** The scopes granted, when the server said. */
  scope: string | null;
  /** A refresh token is kept: an expired token renews without the browser. */
  refreshable: boolean;
}

export interface McpService {
  id: string;
  name: string;
  icon: string;
  /** Tells the model when to use the service. */
  description: string;
  transport: McpTransportKind;
  /** streamable-http / sse. */
  url: string | null;
  /** stdio. */
  command: string | null;
  args: string[];
  env: McpEnvEntry[];
  headers: McpSecretEntry[];
  /** "Available to me": off until tested and synced. */
  enabled: boolean;
  /** Per-call deadline without progress. */
  timeoutMs: number;
  /** Progress extends a call up to this. */
  maxTimeoutMs: number;
  testState: McpTestState;
  testMessage: string | null;
  testedAt: number | null;
  syncedAt: number | null;
  /** The server said its tools changed (tools/list_changed) since the last sync. */
  stale: boolean;
  /** OAuth client settings (HTTP services); null: the defaults (sign in when asked, self-registered). */
  oauth: McpOAuthConfig | null;
  createdAt: number;
  updatedAt: number;
}

/** A tool of a service: the accepted version (callable) and the last synced one. */
export interface McpToolRecord {
  serviceId: string;
  name: string;
  accepted: McpToolInfo | null;
  latest: McpToolInfo | null;
  approval: McpApprovalPolicy;
}

export type McpToolChangeKind = 'added' | 'removed' | 'description' | 'schema' | 'annotations';

/** One line of a sync diff (accepted → latest). */
export interface McpToolChange {
  tool: string;
  kinds: McpToolChangeKind[];
  before: McpToolInfo | null;
  after: McpToolInfo | null;
}

/** A model's MCP default that no longer works, with the seed's marker. */
export type McpDefaultMarker = '已删除' | '已停用' | '未同步';

/** The syslog levels of MCP logging, least severe first. */
export const MCP_LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

/**
 * What a Client ID Metadata Document URL (`mcp.oauthClientMetadataUrl`) must be: https, a path
 * other than "/", no credentials, no fragment.
 */
export function isClientMetadataUrl(text: string): boolean {
  const verdict = checkHttpUrl(text, { allowHttp: false });
  return verdict.ok && verdict.url.pathname !== '/' && verdict.url.hash === '';
}
