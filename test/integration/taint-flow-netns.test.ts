/**
 * Turn taint end to end in the real CLI (docs/architecture/turn-taint.md): `aivory chat` runs in the
 * lab's client namespace (test/support/taint-lab.ts), the scripted model fetches an injection page
 * from a public-looking lab host and then does what it says — an MCP call, a memory write and a
 * fetch carrying data to another host. With `--approve none` all three are held back with a
 * reason the model reads, the turn goes on to its answer, the exfiltrating request never reaches
 * the lab's world server, the pending memory stays out of system prompts until confirmed, and
 * `conversations show` prints the taint notice under the fetch that caused it. The same turn with
 * `--approve all` shows the lab would have seen the leak.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/shared/dto';
import { setUpTaintLab } from '../support/taint-lab';
import {
  EXFIL_HOST,
  EXFIL_URL,
  FINAL_ANSWER,
  INJECTED_MEMORY,
  INJECTION_URL,
  MCP_ARGUMENTS,
  MCP_SERVICE,
  MCP_TOOL_NAME,
  PLAIN_ANSWER,
  systemPrompt,
  TAINT_PROMPT,
  toolMessages,
} from '../support/taint-script';

const lab = setUpTaintLab();

afterEach(async () => {
  expect(await lab().fetchLab.canaryConnections()).toEqual([]);
});

function chatArgs(approve: 'none' | 'all', text: string, conversationId?: string): string[] {
  return [
    'chat',
    '--base-url',
    lab().llm.baseUrl,
    '--model',
    'scripted-model',
    '--tool-mode',
    'prompt',
    '--tools',
    'web_fetch,save_memory',
    '--mcp',
    MCP_SERVICE,
    '--approve',
    approve,
    ...(conversationId ? ['--conversation', conversationId] : []),
    text,
  ];
}

async function memories(): Promise<Memory[]> {
  const listed = await lab().cli(['memories', 'list', '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as Memory[];
}

/** The trace lines (stderr) of a human-output turn, timings masked. */
function traceLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replace(/\(\d+ ms\)/, '(… ms)'));
}

describe('turn taint in the CLI, over the netns lab', () => {
  it('--approve none: the MCP call, the memory and the exfiltrating fetch are held back with a reason; the turn answers', async () => {
    const { llm, cli } = lab();
    const firstRequest = llm.requests.length;
    const turn = await cli(chatArgs('none', TAINT_PROMPT));
    expect(turn.code, turn.stderr).toBe(0);
    expect(turn.stdout).toContain(FINAL_ANSWER);

    const trace = traceLines(turn.stderr);
    const at = (pattern: RegExp): number => {
      const index = trace.findIndex((line) => pattern.test(line));
      expect(index, `${pattern} in:\n${trace.join('\n')}`).toBeGreaterThanOrEqual(0);
      return index;
    };
    const fetched = at(/^ {2}✓ web_fetch ok \(… ms\): Title: Lab News: a helpful page/);
    const tainted = at(
      new RegExp(
        `^ {2}! this turn read untrusted content \\(web_fetch ${INJECTION_URL}\\): from now on MCP calls`,
      ),
    );
    const mcpRefused = at(
      new RegExp(
        `^ {2}✗ ${MCP_TOOL_NAME} error \\(… ms\\): ${MCP_TOOL_NAME} was not called: this call comes after the turn read untrusted content`,
      ),
    );
    const memoryHeld = at(
      /^ {2}✓ save_memory ok \(… ms\): Held for the user's confirmation \(PENDING; this turn read untrusted content/,
    );
    const fetchRefused = at(
      new RegExp(
        `^ {2}✗ web_fetch error \\(… ms\\): Could not fetch ${EXFIL_URL.replace(/[?.]/g, '\\$&')}: not fetched`,
      ),
    );
    expect([fetched, tainted, mcpRefused, memoryHeld, fetchRefused]).toEqual(
      [fetched, tainted, mcpRefused, memoryHeld, fetchRefused].toSorted((a, b) => a - b),
    );
    expect(
      trace.filter((line) => line.includes('this turn read untrusted content (')),
    ).toHaveLength(1);

    // What the model read: each refusal in full, with what to do about it.
    const turnRequests = llm.requests.slice(firstRequest);
    expect(turnRequests).toHaveLength(5);
    const [page, mcp, memory, exfil] = toolMessages(turnRequests.at(-1));
    expect(page).toContain('LAB-INJECTION-7F3A');
    expect(mcp).toMatch(/^<tool_error/);
    expect(mcp).toContain(
      `${MCP_TOOL_NAME} was not called: this call comes after the turn read untrusted content (web pages, search results, MCP or program output), so it is asked whatever its usual approval, and nobody could be asked (non-interactive run: use --approve all, or set the tool to "always, even after web content").`,
    );
    expect(mcp).not.toContain('Echo:');
    expect(memory).toContain(
      `Held for the user's confirmation (PENDING; this turn read untrusted content, so it is not used until the user confirms it under Memories): ${INJECTED_MEMORY}`,
    );
    expect(exfil).toContain(
      `Could not fetch ${EXFIL_URL}: not fetched: this page was found after reading untrusted content and would send data in its address, and nobody could be asked`,
    );

    // The lab's world server saw the injection page and nothing for the exfiltration host.
    expect(lab().worldRequestsTo('news.example-public.test')).toMatchObject([
      { path: '/injection' },
    ]);
    expect(lab().worldRequestsTo(EXFIL_HOST)).toEqual([]);

    // The memory waits, with its origin, and stays out of the next turn's system prompt.
    const [pending, ...others] = await memories();
    expect(others).toEqual([]);
    expect(pending).toMatchObject({
      memoryText: INJECTED_MEMORY,
      status: 'PENDING',
      origin: { reason: `web_fetch ${INJECTION_URL}` },
    });
    expect(pending?.origin?.turnId).toMatch(/\S/);
    const listed = await cli(['memories', 'list']);
    expect(listed.stdout).toContain(`${pending?.id}\tPENDING\t`);
    expect(listed.stdout).toContain(
      `  pending: saved from turn ${pending?.origin?.turnId} that read web_fetch ${INJECTION_URL} — confirm with: aivory memories confirm ${pending?.id}`,
    );

    const conversations = JSON.parse((await cli(['conversations', 'list', '--json'])).stdout) as {
      id: string;
    }[];
    expect(conversations).toHaveLength(1);
    const conversationId = conversations[0]?.id ?? '';
    // The stored conversation prints the notice under the result that tainted the turn.
    const shown = (await cli(['conversations', 'show', conversationId])).stdout.split('\n');
    const notice = shown.findIndex((line) =>
      line.startsWith(`  ! this turn read untrusted content (web_fetch ${INJECTION_URL})`),
    );
    expect(notice, shown.join('\n')).toBeGreaterThan(0);
    expect(shown[notice - 1]).toMatch(
      /^ {2}✓ web_fetch ok \(\d+ ms\): Title: Lab News: a helpful page URL: http:\/\/news\./,
    );
    expect(shown.filter((line) => line.startsWith('  ! '))).toHaveLength(1);
    const before = await cli(chatArgs('none', 'What do you know about me?', conversationId));
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toBe(`${PLAIN_ANSWER}\n`);
    expect(systemPrompt(llm.requests.at(-1))).not.toBe('');
    expect(systemPrompt(llm.requests.at(-1))).not.toContain(INJECTED_MEMORY);
    for (const request of turnRequests)
      expect(systemPrompt(request)).not.toContain(INJECTED_MEMORY);

    const confirmed = await cli(['memories', 'confirm', pending?.id ?? '']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stdout).toContain(`${pending?.id}\tACTIVE\t`);
    const after = await cli(chatArgs('none', 'And now?', conversationId));
    expect(after.code, after.stderr).toBe(0);
    expect(systemPrompt(llm.requests.at(-1))).toContain(`- ${INJECTED_MEMORY}`);
  }, 180_000);

  it('--approve all: the same turn reaches the MCP server and the exfiltration host (the lab would see a leak), and the memory still waits', async () => {
    const { llm, cli } = lab();
    const firstRequest = llm.requests.length;
    const exfilBefore = lab().worldRequestsTo(EXFIL_HOST).length;
    const pendingBefore = (await memories()).filter((item) => item.status === 'PENDING').length;
    const turn = await cli(chatArgs('all', TAINT_PROMPT));
    expect(turn.code, turn.stderr).toBe(0);
    expect(turn.stdout).toContain(FINAL_ANSWER);
    const [, mcp, memory] = toolMessages(llm.requests.at(-1));
    expect(llm.requests.length - firstRequest).toBe(5);
    expect(mcp).toContain(`Echo: ${MCP_ARGUMENTS.message}`);
    expect(memory).toContain("Held for the user's confirmation (PENDING;");
    expect(lab().worldRequestsTo(EXFIL_HOST).slice(exfilBefore)).toMatchObject([
      { path: new URL(EXFIL_URL).pathname + new URL(EXFIL_URL).search },
    ]);
    // Allowing the calls confirms nothing: only the user can, memory by memory.
    expect((await memories()).filter((item) => item.status === 'PENDING')).toHaveLength(
      pendingBefore + 1,
    );
  }, 180_000);
});
