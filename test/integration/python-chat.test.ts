/**
 * "A user with Docker can run Python from a chat": the real CLI, a local sidecar it starts on its
 * own, the real runner image, a scripted model calling python_execute across two turns of one
 * conversation. Variables persist between calls, the plot lands on disk and on the message, and
 * the next CLI process restores the workspace files.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireDockerAndImage } from '../../sandbox/test/support/docker-fixture';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';
import { PYTHON_EXECUTE_DESCRIPTION } from '../../src/main/tools/python-execute';
import { readSeed, seedToolDefinition, TOOL_PROTOCOL_SEED } from '../support/seed';

const call = (code: string) =>
  `<tool_call>${JSON.stringify({ name: 'python_execute', arguments: { code } })}</tool_call>`;

describe('python_execute from a chat', () => {
  let server: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await server?.close();
  });

  it('has the seed definition verbatim', () => {
    const seed = seedToolDefinition(readSeed(TOOL_PROTOCOL_SEED), 'python_execute');
    expect(PYTHON_EXECUTE_DESCRIPTION).toBe(seed.description);
  });

  it('runs statefully across turns, returns plots as files on disk', async () => {
    requireDockerAndImage();
    server = await startScriptedLlmServer([
      {
        content: call(
          "import matplotlib.pyplot as plt\ntotal = sum(range(10))\nplt.bar(['a', 'b'], [3, 5])\nplt.title('销量')",
        ),
      },
      { content: call('print(total * 2)') },
      { content: 'The total is 45, twice that is 90; the chart is attached.' },
      {
        content: call(
          "import os\nprint(os.path.exists('outputs/figure-1.png'), 'total' in globals())",
        ),
      },
      { content: 'The chart is still there.' },
    ]);
    const home = makeDataDir();
    const env = cliEnv(home, { AIVORY_LOCAL_SANDBOX: '1' });
    const base = [
      'chat',
      '--json',
      '--base-url',
      server.baseUrl,
      '--model',
      'scripted-model',
      '--tool-mode',
      'prompt',
    ];
    const first = await runCli([...base, 'Sum 0..9 and chart it'], env);
    expect(first.stderr).toBe('');
    const events = jsonLines(first.stdout);
    const results = events.filter((event) => event.type === 'tool-result') as {
      status: string;
      output: string;
      artifacts: { name: string; path: string; mime: string }[];
    }[];
    expect(results).toHaveLength(2);
    const result = results[0]!;
    // Variables persist between calls of a conversation, like a notebook.
    expect(results[1]?.output).toMatch(/^status: ok \(\d+ ms\)\nstdout:\n90\n$/);
    expect(result.status).toBe('ok');
    expect(result.output).toContain(
      'files attached to your answer automatically (refer to them by name): figure-1.png',
    );
    expect(result.artifacts).toHaveLength(1);
    const artifact = result.artifacts[0]!;
    expect(artifact).toMatchObject({ name: 'figure-1.png', mime: 'image/png' });
    expect(existsSync(artifact.path)).toBe(true);
    expect(readFileSync(artifact.path).subarray(1, 4).toString()).toBe('PNG');
    expect(artifact.path.startsWith(`${home}/artifacts/`)).toBe(true);

    const conversationId = String(events[0]?.conversationId);
    const second = await runCli([...base, '--conversation', conversationId, 'Double it'], env);
    const secondResult = jsonLines(second.stdout).find((event) => event.type === 'tool-result') as {
      output: string;
    };
    // The first CLI process archived the workspace when it exited and this one restored it:
    // files survive, variables do not (documented in sandbox/README.md).
    expect(secondResult.output).toMatch(/stdout:\nTrue False\n$/);

    const exported = await runCli(
      ['conversations', 'export', conversationId, '--format', 'json'],
      env,
    );
    const document = JSON.parse(exported.stdout) as { messages: { parts: { kind: string }[] }[] };
    expect(document.messages[1]?.parts.map((part) => part.kind)).toEqual([
      'tool-call',
      'tool-result',
      'artifact',
      'tool-call',
      'tool-result',
      'text',
    ]);
  }, 120_000);

  it('stages attached files in /workspace/uploads unchanged, across turns', async () => {
    requireDockerAndImage();
    const listing =
      "import os, hashlib, pandas as pd\nfor name in sorted(os.listdir('/workspace/uploads')):\n    print(name, hashlib.sha256(open('/workspace/uploads/' + name, 'rb').read()).hexdigest()[:12])\nprint(pd.read_csv('/workspace/uploads/data.csv')['v'].sum())";
    server = await startScriptedLlmServer([
      { content: call(listing) },
      { content: 'Listed.' },
      { content: call(listing) },
      { content: 'Listed again.' },
    ]);
    const home = makeDataDir();
    const env = cliEnv(home, { AIVORY_LOCAL_SANDBOX: '1' });
    const csv = join(home, 'data.csv');
    writeFileSync(csv, 'v\n1\n2\n39\n');
    const blob = join(home, 'scan.bin');
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10, 0x80]);
    writeFileSync(blob, bytes);
    const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex').slice(0, 12);
    const base = [
      'chat',
      '--json',
      '--base-url',
      server.baseUrl,
      '--model',
      'scripted-model',
      '--tool-mode',
      'prompt',
    ];
    const first = await runCli([...base, '--attach', csv, 'Sum the column'], env);
    expect(first.stderr).toBe('');
    const events = jsonLines(first.stdout);
    const result = events.find((event) => event.type === 'tool-result') as { output: string };
    expect(result.output).toContain(`stdout:\ndata.csv ${digest(readFileSync(csv))}\n42\n`);
    // The model was told where the file is.
    const sent = server.requests[0]?.body.messages as { content: string }[];
    expect(sent.at(-1)?.content).toContain(
      '- data.csv (text/csv, 9 B) at /workspace/uploads/data.csv',
    );

    const conversationId = String(events[0]?.conversationId);
    const second = await runCli(
      [...base, '--conversation', conversationId, '--attach', blob, 'And now?'],
      env,
    );
    const again = jsonLines(second.stdout).find((event) => event.type === 'tool-result') as {
      output: string;
    };
    // Binary bytes arrive unchanged (no conversion), next to the earlier upload.
    expect(again.output).toContain(
      `stdout:\ndata.csv ${digest(readFileSync(csv))}\nscan.bin ${digest(bytes)}\n42\n`,
    );
  }, 120_000);
});
