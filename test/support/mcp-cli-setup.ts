/**
 * Sets up an MCP service the way a user would on the command line — add, sync, accept, enable,
 * and "allow" for the named tools — in the data directory of `env`; a step that fails throws with
 * the command and what it printed.
 */
import { runCli } from './run-cli';

export interface CliMcpService {
  name: string;
  url: string;
  description: string;
  /** Tools whose approval policy becomes `allow` (model calls run without a card). */
  allow?: readonly string[];
}

export async function addEnabledMcpService(
  env: NodeJS.ProcessEnv,
  service: CliMcpService,
): Promise<void> {
  const { name } = service;
  const steps = [
    ['mcp', 'add', '--name', name, '--url', service.url, '--description', service.description],
    ['mcp', 'sync', name],
    ['mcp', 'accept', name],
    ['mcp', 'enable', name],
    ...(service.allow ?? []).map((tool) => ['mcp', 'approval', name, tool, 'allow']),
  ];
  for (const step of steps) {
    const result = await runCli(step, env);
    if (result.code !== 0)
      throw new Error(
        `aivory ${step.join(' ')} failed (${result.code}): ${result.stdout}${result.stderr}`,
      );
  }
}
