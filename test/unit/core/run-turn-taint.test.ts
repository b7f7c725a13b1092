/**
 * The turn's taint in the core loop: a call of a tool with `untrustedOutput` taints the rest of
 * the turn (announced once by `turn-tainted`), later calls see it in `ToolContext.taint`, earlier
 * and unrelated calls do not; tools without `untrustedOutput` never taint.
 */
import { describe, expect, it } from 'vitest';
import type { Tool, ToolContext } from '../../../src/main/core/ports';
import { echoTool } from '../../support/fake-tools';
import { eventsOfType, promptCall, runScriptedTurn } from '../../support/turn-harness';

/** A tool that records the taint and turn id each call was given. */
function observingTool(name: string, untrusted?: Tool['untrustedOutput']) {
  const seen: { taint: ToolContext['taint']; turnId: string | undefined }[] = [];
  const tool: Tool = {
    ...echoTool(name),
    ...(untrusted ? { untrustedOutput: untrusted } : {}),
    execute: (_args, context) => {
      seen.push({ taint: context.taint, turnId: context.turnId });
      return Promise.resolve({ content: `${name} ran` });
    },
  };
  return { tool, seen };
}

describe('turn taint', () => {
  it('taints the turn after the first untrusted call, announces it once, and tells later calls', async () => {
    const local = observingTool('local');
    const page = observingTool('page', {
      sources: (args) => [String(args.value)],
    });
    const search = observingTool('search', {});
    const run = await runScriptedTurn(
      [
        { toolCalls: [{ id: 'c1', name: 'local', arguments: '{"value":"a"}' }] },
        {
          toolCalls: [
            { id: 'c2', name: 'page', arguments: '{"value":"https://evil.example/"}' },
            { id: 'c3', name: 'local', arguments: '{"value":"b"}' },
          ],
        },
        { toolCalls: [{ id: 'c4', name: 'search', arguments: '{"value":"q"}' }] },
        { toolCalls: [{ id: 'c5', name: 'local', arguments: '{"value":"c"}' }] },
        { content: 'Done.' },
      ],
      { toolMode: 'native', tools: [local.tool, page.tool, search.tool] },
    );
    expect(run.end.stopReason).toBe('completed');
    expect(eventsOfType(run.events, 'turn-tainted')).toEqual([
      {
        type: 'turn-tainted',
        turnId: 'turn_1',
        toolCallId: 'c2',
        reasons: [{ tool: 'page', detail: 'https://evil.example/' }],
      },
    ]);
    // Announced right after the result of the call that tainted the turn.
    const index = run.events.findIndex((event) => event.type === 'turn-tainted');
    expect(run.events[index - 1]).toMatchObject({ type: 'tool-result', toolCallId: 'c2' });

    expect(local.seen.map((call) => call.taint)).toEqual([
      { tainted: false, reasons: [] },
      { tainted: true, reasons: [{ tool: 'page', detail: 'https://evil.example/' }] },
      {
        tainted: true,
        reasons: [
          { tool: 'page', detail: 'https://evil.example/' },
          { tool: 'search', detail: null },
        ],
      },
    ]);
    expect(page.seen[0]?.taint).toEqual({ tainted: false, reasons: [] });
    expect(local.seen.map((call) => call.turnId)).toEqual(['turn_1', 'turn_1', 'turn_1']);
    // What a tool is given cannot be changed by it.
    expect(Object.isFrozen(local.seen[1]?.taint)).toBe(true);
  });

  it('a failed untrusted call taints too; calls that never ran (unknown, invalid, skipped) do not', async () => {
    const local = observingTool('local');
    const failing: Tool = {
      ...echoTool('mcp_tool'),
      untrustedOutput: {},
      execute: () => Promise.resolve({ content: 'server said no', isError: true }),
    };
    const run = await runScriptedTurn(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'nope', arguments: '{}' },
            { id: 'c2', name: 'local', arguments: '{"value":"a"}' },
            { id: 'c3', name: 'mcp_tool', arguments: '{"value":"x"}' },
            { id: 'c4', name: 'local', arguments: '{"value":"b"}' },
          ],
        },
        { content: 'Done.' },
      ],
      { toolMode: 'native', tools: [local.tool, failing] },
    );
    expect(eventsOfType(run.events, 'turn-tainted')).toEqual([
      {
        type: 'turn-tainted',
        turnId: 'turn_1',
        toolCallId: 'c3',
        reasons: [{ tool: 'mcp_tool', detail: null }],
      },
    ]);
    expect(local.seen.map((call) => call.taint?.tainted)).toEqual([false, true]);
  });

  it('a call that says what it read names those sources; one that read nothing does not taint', async () => {
    const local = observingTool('local');
    const refusing: Tool = {
      ...echoTool('guarded'),
      untrustedOutput: { sources: () => ['from-args'] },
      execute: (args) =>
        Promise.resolve(
          Object.fromEntries(Object.entries(args ?? {})).value === 'refuse'
            ? { content: 'refused', isError: true, untrustedSources: [] }
            : { content: 'read', untrustedSources: ['https://read.example/'] },
        ),
    };
    const run = await runScriptedTurn(
      [
        { toolCalls: [{ id: 'c1', name: 'guarded', arguments: '{"value":"refuse"}' }] },
        { toolCalls: [{ id: 'c2', name: 'local', arguments: '{"value":"a"}' }] },
        { toolCalls: [{ id: 'c3', name: 'guarded', arguments: '{"value":"go"}' }] },
        { toolCalls: [{ id: 'c4', name: 'local', arguments: '{"value":"b"}' }] },
        { content: 'Done.' },
      ],
      { toolMode: 'native', tools: [local.tool, refusing] },
    );
    expect(local.seen.map((call) => call.taint)).toEqual([
      { tainted: false, reasons: [] },
      { tainted: true, reasons: [{ tool: 'guarded', detail: 'https://read.example/' }] },
    ]);
    expect(eventsOfType(run.events, 'turn-tainted')).toHaveLength(1);
  });

  it('a turn of trusted tools only is never tainted', async () => {
    const run = await runScriptedTurn([promptCall('alpha', { value: '1' }), { content: 'Done.' }], {
      toolMode: 'prompt',
      tools: [echoTool('alpha')],
    });
    expect(eventsOfType(run.events, 'turn-tainted')).toEqual([]);
  });
});
