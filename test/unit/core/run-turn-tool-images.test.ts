/**
 * Images in tool results (MCP image content): a vision model gets them on the next round
 * (natively a user message after the round's tool results naming the call; in prompt mode on the
 * `<tool_result>` message, its text unchanged), bounded per turn and only from calls that taint
 * the turn; a model without vision reads only the result text's description.
 */
import { describe, expect, it } from 'vitest';
import type { ChatImage, Tool, ToolOutput } from '../../../src/main/core/ports';
import {
  MAX_TOOL_IMAGE_BYTES,
  MAX_TOOL_IMAGES_PER_TURN,
} from '../../../src/main/core/orchestrator/tool-images';
import { formatToolResult } from '../../../src/main/core/orchestrator/protocol-text';
import { echoTool } from '../../support/fake-tools';
import {
  eventsOfType,
  promptCall,
  requestMessages,
  runScriptedTurn,
} from '../../support/turn-harness';

const PNG: ChatImage = {
  mime: 'image/png',
  data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
};
const DESCRIBED = 'Here is the image:\n[image: image/png, 11 B]';

/** A tool returning `images` (untrusted output unless `trusted`). */
function imageTool(name: string, output: Partial<ToolOutput>, trusted = false): Tool {
  return {
    ...echoTool(name),
    ...(trusted ? {} : { untrustedOutput: {} }),
    execute: () => Promise.resolve({ content: DESCRIBED, images: [PNG], ...output }),
  };
}

describe('tool result images', () => {
  it('natively, a vision model gets a user message with the images after the round’s tool results', async () => {
    const run = await runScriptedTurn(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'shot', arguments: '{"value":"a"}' },
            { id: 'c2', name: 'plain', arguments: '{"value":"b"}' },
          ],
        },
        { content: 'I see it.' },
      ],
      {
        toolMode: 'native',
        tools: [imageTool('shot', {}), echoTool('plain')],
        vision: true,
      },
    );
    expect(run.end.stopReason).toBe('completed');
    const messages = requestMessages(run.requests[1]).slice(-4);
    expect(messages.map((message) => message.role)).toEqual(['assistant', 'tool', 'tool', 'user']);
    expect(messages[1]).toEqual({ role: 'tool', toolCallId: 'c1', content: DESCRIBED });
    const user = messages[3];
    expect(user?.role === 'user' && user.content).toContain('Images returned by shot (call c1)');
    expect(user?.role === 'user' && user.images).toEqual([PNG]);
    // The images came with the taint.
    expect(eventsOfType(run.events, 'turn-tainted')[0]?.toolCallId).toBe('c1');
  });

  it('a model without vision reads only the description', async () => {
    const run = await runScriptedTurn(
      [{ toolCalls: [{ id: 'c1', name: 'shot', arguments: '{}' }] }, { content: 'ok' }],
      { toolMode: 'native', tools: [imageTool('shot', {})] },
    );
    const messages = requestMessages(run.requests[1]);
    expect(messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'c1', content: DESCRIBED });
    expect(messages.some((message) => message.role === 'user' && message.images)).toBe(false);
  });

  it('in prompt mode the images ride on the <tool_result> message, whose text stays the same', async () => {
    const run = await runScriptedTurn([promptCall('shot', {}), { content: 'ok' }], {
      toolMode: 'prompt',
      tools: [imageTool('shot', {})],
      vision: true,
    });
    const last = requestMessages(run.requests[1]).at(-1);
    expect(last).toEqual({
      role: 'user',
      content: formatToolResult('shot', DESCRIBED),
      images: [PNG],
    });
  });

  it('sends no images from a tool without untrusted output, or a call that read nothing', async () => {
    const run = await runScriptedTurn(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'trusted', arguments: '{}' },
            { id: 'c2', name: 'refused', arguments: '{}' },
          ],
        },
        { content: 'ok' },
      ],
      {
        toolMode: 'native',
        tools: [imageTool('trusted', {}, true), imageTool('refused', { untrustedSources: [] })],
        vision: true,
      },
    );
    const messages = requestMessages(run.requests[1]);
    expect(messages.some((message) => message.role === 'user' && message.images)).toBe(false);
    expect(eventsOfType(run.events, 'turn-tainted')).toEqual([]);
  });

  it('bounds the images: raster types, size, and a per-turn count', async () => {
    const svg: ChatImage = { mime: 'image/svg+xml', data: new Uint8Array([60, 115]) };
    const huge: ChatImage = { mime: 'image/png', data: new Uint8Array(MAX_TOOL_IMAGE_BYTES + 1) };
    const many = Array.from({ length: MAX_TOOL_IMAGES_PER_TURN + 2 }, () => PNG);
    const run = await runScriptedTurn(
      [
        { toolCalls: [{ id: 'c1', name: 'odd', arguments: '{}' }] },
        { toolCalls: [{ id: 'c2', name: 'many', arguments: '{}' }] },
        { content: 'ok' },
      ],
      {
        toolMode: 'native',
        tools: [
          imageTool('odd', { images: [svg, huge, PNG] }),
          imageTool('many', { images: many }),
        ],
        vision: true,
      },
    );
    const first = requestMessages(run.requests[1]).at(-1);
    expect(first?.role === 'user' && first.images).toEqual([PNG]);
    expect(first?.content).toContain(
      '2 images of odd (call c1) not shown: not a png, jpeg, gif or webp image',
    );
    const second = requestMessages(run.requests[2]).at(-1);
    expect(second?.role === 'user' && second.images?.length).toBe(MAX_TOOL_IMAGES_PER_TURN - 1);
    expect(second?.content).toContain(
      `3 images of many (call c2) not shown: at most ${MAX_TOOL_IMAGES_PER_TURN} tool images per turn`,
    );
  });
});
