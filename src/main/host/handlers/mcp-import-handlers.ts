/**
 * `mcp.importPlan` / `mcp.import`: Settings → MCP → Import over the same parser and runner as
 * `aivory mcp import`. `${env:…}` reads the app's own environment (the plan says so for each
 * value); a plan with command servers needs the user's confirmation of their command lines, as
 * adding one by hand does.
 */
import { AivoryError } from '../../../shared/errors';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import type { McpImportPlan } from '../../services/mcp/mcp-config-import';
import { planMcpImport } from '../../services/mcp/mcp-config-import';
import { importServices } from '../../services/mcp/mcp-import';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';
import { MCP_REQUEST_TIMEOUT_MS } from './mcp-handlers';

type ImportHandlers = Pick<ApiHandlers, 'mcp.importPlan' | 'mcp.import'>;

export function createMcpImportHandlers(context: HostContext): ImportHandlers {
  const plan = (
    text: string,
    inputs: Record<string, string> | undefined,
    allowLoaderEnv: Record<string, string[]> | undefined,
  ): McpImportPlan =>
    planMcpImport(text, {
      existingNames: context.app.stores.mcp.listServices().map((service) => service.name),
      env: process.env,
      allowLocalCommands: context.app.settings.get('mcp').allowLocalCommands,
      ...(inputs ? { inputs } : {}),
      ...(allowLoaderEnv ? { allowLoaderEnv } : {}),
    });
  return {
    'mcp.importPlan': ({ text, inputs, allowLoaderEnv }) =>
      planView(plan(text, inputs, allowLoaderEnv)),
    'mcp.import': async ({ text, inputs, allowLoaderEnv, confirmCommands }) => {
      const planned = plan(text, inputs, allowLoaderEnv);
      const ready = planned.entries.filter((entry) => entry.missingInputs.length === 0);
      if (ready.some((entry) => entry.transport === 'stdio') && confirmCommands !== true)
        throw new AivoryError(
          'invalid-input',
          'Local command servers run with your permissions: confirm their command lines first.',
        );
      const results = await importServices(context.app.mcp, ready, {
        signal: () => AbortSignal.timeout(MCP_REQUEST_TIMEOUT_MS),
      });
      return { plan: planView(planned), results };
    },
  };
}

/** The plan with exactly the contract's fields: values as shown (secrets masked), never raw. */
function planView(plan: McpImportPlan): InvokeResponse<'mcp.importPlan'> {
  const values = (entries: McpImportPlan['entries'][number]['env']) =>
    entries.map((entry) => ({
      name: entry.name,
      shown: entry.shown,
      secret: entry.secret,
      from: entry.from,
      loader: entry.loader,
      allowed: entry.allowed,
    }));
  return {
    shape: plan.shape,
    entries: plan.entries.map((entry) => ({
      name: entry.name,
      transport: entry.transport,
      // As shown: a secret part of the URL or an argument masked, never sent to the page.
      url: entry.shownUrl,
      command: entry.command,
      args: entry.shownArgs,
      env: values(entry.env),
      headers: values(entry.headers),
      missingInputs: entry.missingInputs,
      notes: entry.notes,
    })),
    skipped: plan.skipped,
    inputs: plan.inputs,
  };
}
