/** Migration 17: what each MCP service's server said it offers. Never edit a shipped migration. */
export default `
-- 017 (MCP, issue 23): the server's capabilities as last seen on a connection (JSON of
-- McpServerFeatures: tools, prompts, resources, resourceSubscribe, completions), so a turn offers
-- the model's resource reader only for services with resources without connecting first. NULL:
-- not seen since this migration (the reader is offered, as before).
ALTER TABLE mcp_services ADD COLUMN server_features TEXT
  CHECK (server_features IS NULL OR json_valid(server_features));
`;
