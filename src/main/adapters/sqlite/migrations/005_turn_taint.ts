/** Migration 5: turn taint. Never edit a shipped migration; add the next one. */
export default `
-- 005: memories saved after a turn read untrusted content wait as PENDING with their origin, and
-- an MCP tool may be allowed "even after web content".

-- A CHECK constraint cannot be altered in SQLite: memories is rebuilt with the PENDING status and
-- the origin columns (nothing references it, so the copy is a plain one). origin_reason is set
-- exactly for memories saved in a tainted turn; origin_turn_id names that turn when known.
CREATE TABLE memories_v5 (
  id TEXT PRIMARY KEY,
  memory_text TEXT NOT NULL,
  slot TEXT,
  value TEXT,
  status TEXT NOT NULL CHECK (status IN ('ACTIVE', 'ARCHIVED', 'PENDING')),
  created_at INTEGER NOT NULL,
  conversation_id TEXT REFERENCES conversations (id) ON DELETE SET NULL,
  origin_turn_id TEXT,
  origin_reason TEXT,
  CHECK (origin_turn_id IS NULL OR origin_reason IS NOT NULL)
);
INSERT INTO memories_v5 (id, memory_text, slot, value, status, created_at, conversation_id)
  SELECT id, memory_text, slot, value, status, created_at, conversation_id FROM memories;
DROP TABLE memories;
ALTER TABLE memories_v5 RENAME TO memories;

-- The same for the per-tool approval policy: 'allow-even-after-web' ("always, even after web
-- content") is the one policy a tainted turn does not ask again for.
CREATE TABLE mcp_tools_v5 (
  service_id TEXT NOT NULL REFERENCES mcp_services (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  accepted TEXT CHECK (accepted IS NULL OR json_valid(accepted)),
  latest TEXT CHECK (latest IS NULL OR json_valid(latest)),
  approval TEXT NOT NULL DEFAULT 'default'
    CHECK (approval IN ('default', 'ask', 'allow', 'allow-even-after-web', 'deny')),
  PRIMARY KEY (service_id, name)
) WITHOUT ROWID;
INSERT INTO mcp_tools_v5 (service_id, name, accepted, latest, approval)
  SELECT service_id, name, accepted, latest, approval FROM mcp_tools;
DROP TABLE mcp_tools;
ALTER TABLE mcp_tools_v5 RENAME TO mcp_tools;
`;
