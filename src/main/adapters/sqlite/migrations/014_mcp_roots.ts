/** Migration 14: MCP roots. Never edit a shipped migration; add the next one. */
export default `
-- 014 (MCP roots): the folders the user shares with a service (answered to roots/list), in the
-- order they were added; none by default. The path is absolute with symlinks resolved (the
-- service layer checks it is a directory); name is an optional label. Removing a service removes
-- its roots.
CREATE TABLE mcp_roots (
  service_id TEXT NOT NULL REFERENCES mcp_services (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  path TEXT NOT NULL CHECK (length(path) BETWEEN 1 AND 4096),
  name TEXT CHECK (name IS NULL OR length(name) BETWEEN 1 AND 100),
  PRIMARY KEY (service_id, path),
  UNIQUE (service_id, position)
) WITHOUT ROWID;
`;
