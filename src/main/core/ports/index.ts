/**
 * Ports: the only way core, tools and services reach the outside world. Adapters implement them;
 * tests use fakes. Nothing here imports an SDK or does I/O. One file per domain:
 *
 * - `llm.ts` — LlmClient and the provider-neutral request/chunk types
 * - `tool.ts` — Tool, ToolContext, ToolOutput, Approver
 * - `turn-tools.ts` — TurnTools: the tools a turn can be given
 * - `system.ts` — Clock, IdGenerator, Logger
 * - `secrets.ts` — SecretStore
 * - `conversation-store.ts`, `memory-store.ts`, `settings-store.ts`, `library-store.ts`,
 *   `mcp-store.ts` — one store per aggregate; `stores.ts` — AppStores, all of them
 * - `conversation-titler.ts` — ConversationTitler: a title after the first answer
 * - `web.ts` — WebResourceFetcher, PdfTextExtractor, HostResolver, SearchTransport
 * - `images.ts` — ImageClient
 * - `sandbox.ts` — PythonSandbox, DownloadStager, UploadTarget, SandboxConnection(+Connector)
 * - `artifacts.ts` — ArtifactSink
 * - `knowledge.ts` — KnowledgeStore (folders, files, passages, search) and KnowledgeFiles
 * - `mcp.ts` — McpConnector, McpSession, McpError
 */
export * from './artifacts';
export * from './conversation-store';
export * from './conversation-titler';
export * from './images';
export * from './knowledge';
export * from './library-store';
export * from './llm';
export * from './mcp';
export * from './mcp-store';
export * from './memory-store';
export * from './sandbox';
export * from './secrets';
export * from './settings-store';
export * from './stores';
export * from './system';
export * from './tool';
export * from './turn-tools';
export * from './web';
