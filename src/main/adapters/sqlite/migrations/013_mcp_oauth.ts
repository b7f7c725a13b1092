/** Migration 13: OAuth client settings of an MCP service. Never edit a shipped migration; add the next one. */
export default `
-- 013 (MCP OAuth): the grant and a pre-registered client of an HTTP service, as JSON
-- {"grant": "authorization_code" | "client_credentials", "clientId": …, "clientSecretRef": …,
--  "clientKeyRef": …, "keyAlgorithm": …} (private_key_jwt: the key's reference and algorithm);
-- NULL means the defaults (sign in when the server asks, Aivory registers itself). Secrets
-- (the client secret, tokens) stay in the SecretStore: only a reference is here.
ALTER TABLE mcp_services ADD COLUMN oauth TEXT CHECK (oauth IS NULL OR json_valid(oauth));
`;
