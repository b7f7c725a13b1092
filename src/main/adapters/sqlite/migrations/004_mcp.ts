/** Migration 4: mcp. Never edit a shipped migration; add the next one. */
export default `
-- 004: the user's MCP services, their tool snapshots, approvals, and the models' MCP defaults.

-- Header and environment values are not here: each entry names a SecretStore reference.
CREATE TABLE mcp_services (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
  icon TEXT NOT NULL CHECK (length(icon) BETWEEN 1 AND 32),
  description TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 1000),
  transport TEXT NOT NULL CHECK (transport IN ('streamable-http', 'sse', 'stdio')),
  url TEXT,
  command TEXT,
  args TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(args)),
  env TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(env)),
  headers TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(headers)),
  enabled INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
  timeout_ms INTEGER NOT NULL CHECK (timeout_ms > 0),
  max_timeout_ms INTEGER NOT NULL CHECK (max_timeout_ms >= timeout_ms),
  test_state TEXT NOT NULL DEFAULT 'untested' CHECK (test_state IN ('untested', 'connected', 'error')),
  test_message TEXT,
  tested_at INTEGER,
  synced_at INTEGER,
  stale INTEGER NOT NULL DEFAULT 0 CHECK (stale IN (0, 1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  CHECK ((transport = 'stdio') = (command IS NOT NULL)),
  CHECK ((transport = 'stdio') = (url IS NULL))
);

-- One row per tool name ever seen: 'accepted' is what models may call, 'latest' what the last
-- sync found; a tool is callable only while both exist and are equal (a changed or new tool
-- waits for the user to accept the diff).
CREATE TABLE mcp_tools (
  service_id TEXT NOT NULL REFERENCES mcp_services (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  accepted TEXT CHECK (accepted IS NULL OR json_valid(accepted)),
  latest TEXT CHECK (latest IS NULL OR json_valid(latest)),
  approval TEXT NOT NULL DEFAULT 'default' CHECK (approval IN ('default', 'ask', 'allow', 'deny')),
  PRIMARY KEY (service_id, name)
) WITHOUT ROWID;

-- "Allow for this conversation" answers.
CREATE TABLE mcp_conversation_approvals (
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  service_id TEXT NOT NULL REFERENCES mcp_services (id) ON DELETE CASCADE,
  tool_name TEXT NOT NULL,
  PRIMARY KEY (conversation_id, service_id, tool_name)
) WITHOUT ROWID;

-- Service ids checked by default for a model; NULL: every enabled service.
ALTER TABLE models ADD COLUMN default_mcp_services TEXT CHECK (
  default_mcp_services IS NULL OR json_valid(default_mcp_services)
);
`;
