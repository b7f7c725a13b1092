/**
 * The official MCP conformance suite 0.1.16 (`@modelcontextprotocol/conformance`, pinned in
 * package.json) against Aivory as a client; see suite-runner.ts. The newest release runs next to
 * it in client-scenarios-next.test.ts.
 */
import { describeConformanceSuite } from './suite-runner';

describeConformanceSuite({
  packageDir: '@modelcontextprotocol/conformance',
  version: '0.1.16',
  passing: [
    'initialize',
    'tools_call',
    'elicitation-sep1034-client-defaults',
    'sse-retry',
    'auth/metadata-default',
    'auth/metadata-var1',
    'auth/metadata-var2',
    'auth/metadata-var3',
    'auth/basic-cimd',
    'auth/scope-from-www-authenticate',
    'auth/scope-from-scopes-supported',
    'auth/scope-omitted-when-undefined',
    'auth/scope-step-up',
    'auth/scope-retry-limit',
    'auth/token-endpoint-auth-basic',
    'auth/token-endpoint-auth-post',
    'auth/token-endpoint-auth-none',
    'auth/pre-registration',
    'auth/2025-03-26-oauth-metadata-backcompat',
    'auth/2025-03-26-oauth-endpoint-fallback',
    'auth/resource-mismatch',
    'auth/offline-access-scope',
    'auth/offline-access-not-supported',
    'auth/client-credentials-jwt',
    'auth/client-credentials-basic',
  ],
  notPassing: {
    // Left out on purpose (docs/mcp.md): a capability a personal desktop app does not offer.
    'auth/cross-app-access-complete-flow':
      'enterprise cross-app access (SEP-990) needs an enterprise identity provider issuing ID tokens to the app',
  },
});
