/**
 * An MCP tool's structuredContent outside the trace card: the real `aivory chat` text trace (a
 * scripted model calls the real SDK server's `forecast`, whose structure breaks its output
 * schema for "Atlantis") prints the check and the JSON under the result line, `aivory mcp call`
 * prints them too, and `aivory conversations export --format md` writes them after the result.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEnabledMcpService } from '../support/mcp-cli-setup';
import { startResourceServer } from '../support/mcp-resource-server';
import type { ResourceServer } from '../support/mcp-resource-server';
import type { RecordedRequest, ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

const CHECK = 'structured content: does not match the tool’s output schema';
const CALL = `<tool_call>${JSON.stringify({ name: 'lab__forecast', arguments: { city: 'Atlantis' } })}</tool_call>`;

function script(request: RecordedRequest) {
  const messages = (request.body.messages ?? []) as { role: string; content: string }[];
  const last = messages.at(-1);
  if (last?.role === 'user' && last.content.trim().startsWith('<tool_'))
    return { content: 'Atlantis is under water.' };
  return { content: `Asking the lab.${CALL}` };
}

describe('structured content in the CLI trace and exports', () => {
  const home = makeDataDir();
  const env = cliEnv(home);
  let lab: ResourceServer;
  let llm: ScriptedLlmServer;
  beforeAll(async () => {
    lab = await startResourceServer();
    llm = await startScriptedLlmServer(script);
    await addEnabledMcpService(env, {
      name: 'lab',
      url: lab.url,
      description: 'Weather.',
      allow: ['forecast'],
    });
  }, 120_000);
  afterAll(async () => {
    await lab?.close();
    await llm?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('prints it under the result line of aivory chat and writes it in the Markdown export', async () => {
    const run = await runCli(
      [
        'chat',
        '--base-url',
        llm.baseUrl,
        '--model',
        'm',
        '--tool-mode',
        'prompt',
        '--tools',
        'none',
        '--mcp',
        'lab',
        '--approve',
        'all',
        'What is the weather in Atlantis?',
      ],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.split('\n');
    const result = lines.findIndex((line) => line.includes('✓ lab__forecast ok'));
    expect(result).toBeGreaterThanOrEqual(0);
    expect(lines[result + 1]).toMatch(new RegExp(`^    ${CHECK}: .*temperature`));
    expect(lines.slice(result + 2, result + 6)).toEqual([
      '      {',
      '        "temperature": "unknown",',
      '        "conditions": "Under water"',
      '      }',
    ]);

    const listed = await runCli(['conversations', 'list', '--json'], env);
    const [conversation] = JSON.parse(listed.stdout) as { id: string }[];
    const exported = await runCli(
      ['conversations', 'export', conversation?.id ?? '', '--format', 'md'],
      env,
    );
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(
      /\*\*Structured content\*\* · does not match the tool’s output schema: .*temperature.*\n\n```json\n\{\n {2}"temperature": "unknown",/,
    );
  }, 90_000);

  it('prints it after the output of aivory mcp call', async () => {
    const call = await runCli(['mcp', 'call', 'lab', 'forecast', '{"city":"Oslo"}'], env);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stderr).toContain(
      '    structured content: matches the tool’s output schema\n      {',
    );
  }, 120_000);
});
