/**
 * Carries out an import plan (`mcp-config-import.ts`): each ready entry is added (env and header
 * values into the secret store, as `McpServices.add` always does), tested and synced, its tools
 * held for review like any first sync. One entry failing never stops the others.
 */
import type { McpImportEntry } from './mcp-config-import';
import type { McpServices } from './mcp-services';
import { describeFailure } from './mcp-failure';

export interface McpImportResult {
  name: string;
  /** The new service's id; null when it could not even be added. */
  id: string | null;
  /** Added, connected and synced. */
  ok: boolean;
  /** Tools found by the sync (held for review). */
  toolCount: number;
  /** Why it failed, or the test's line. */
  message: string;
}

/** Adds, tests and syncs each entry in turn; `onResult` hears each as it ends. */
export async function importServices(
  services: McpServices,
  entries: readonly McpImportEntry[],
  options: {
    /** A fresh signal per service (each test and sync has its own deadline). */
    signal: () => AbortSignal;
    onResult?: (result: McpImportResult) => void;
  },
): Promise<McpImportResult[]> {
  const results: McpImportResult[] = [];
  for (const entry of entries) {
    const result = await importOne(services, entry, options.signal);
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}

async function importOne(
  services: McpServices,
  entry: McpImportEntry,
  signal: () => AbortSignal,
): Promise<McpImportResult> {
  if (entry.missingInputs.length > 0)
    return {
      name: entry.name,
      id: null,
      ok: false,
      toolCount: 0,
      message: `needs a value for ${entry.missingInputs.map((id) => `\${input:${id}}`).join(', ')}`,
    };
  // A loader variable goes only where the user allowed it for this service; refused, it is left
  // out (the plan said so) and never reaches the server.
  const env = entry.env.filter((value) => value.loader === null || value.allowed);
  const allowLoaderEnv = env.filter((value) => value.loader !== null).map((value) => value.name);
  let id: string;
  try {
    const { service } = await services.add({
      name: entry.name,
      description: entry.description,
      transport: entry.transport,
      ...(entry.url === null ? {} : { url: entry.url }),
      ...(entry.command === null ? {} : { command: entry.command, args: entry.args }),
      ...(entry.secretParts.length > 0 ? { secretParts: entry.secretParts } : {}),
      ...(env.length > 0 ? { env: env.map((v) => `${v.name}=${v.value}`) } : {}),
      ...(allowLoaderEnv.length > 0 ? { allowLoaderEnv } : {}),
      ...(entry.headers.length > 0
        ? { headers: entry.headers.map((v) => `${v.name}: ${v.value}`) }
        : {}),
    });
    id = service.id;
  } catch (error) {
    return { name: entry.name, id: null, ok: false, toolCount: 0, message: describeFailure(error) };
  }
  const tested = await services.test(id, signal());
  if (!tested.ok) return { name: entry.name, id, ok: false, toolCount: 0, message: tested.message };
  try {
    const synced = await services.sync(id, { accept: false, signal: signal() });
    return { name: entry.name, id, ok: true, toolCount: synced.toolCount, message: tested.message };
  } catch (error) {
    return { name: entry.name, id, ok: false, toolCount: 0, message: describeFailure(error) };
  }
}
