import { describe, expect, it } from 'vitest';
import type { ToolCandidate } from '../../../src/main/core/ports';
import { decideTools, turnToolNames } from '../../../src/main/services/tool-selection';

const builtIn = (name: string): ToolCandidate => ({ name, source: 'built-in' });
const mcp = (name: string, serviceName: string): ToolCandidate => ({
  name,
  source: 'mcp',
  serviceId: `mcp_${serviceName}`,
  serviceName,
});
const candidates = [builtIn('a'), builtIn('b'), builtIn('c'), mcp('s__x', 's'), mcp('t__y', 't')];
const none = { switches: {}, model: { defaultTools: null }, toggles: {} };

describe('tool selection layers', () => {
  it('every tool, then the model defaults, then the conversation toggles', () => {
    expect(turnToolNames(candidates, none)).toEqual(['a', 'b', 'c', 's__x', 't__y']);
    const model = { defaultTools: ['b'], defaultMcpServices: ['t'] };
    expect(turnToolNames(candidates, { ...none, model })).toEqual(['b', 't__y']);
    expect(
      turnToolNames(candidates, { ...none, model, toggles: { a: true, b: false, s__x: true } }),
    ).toEqual(['a', 's__x', 't__y']);
    // A toggle for a name that is no candidate offers nothing.
    expect(turnToolNames(candidates, { ...none, model, toggles: { z: true } })).toEqual([
      'b',
      't__y',
    ]);
  });

  it('the global switch wins over the model, the conversation and a one-off MCP selection', () => {
    const layers = { ...none, switches: { a: false, s__x: false }, toggles: { a: true } };
    expect(turnToolNames(candidates, layers)).toEqual(['b', 'c', 't__y']);
    expect(turnToolNames(candidates, layers, { tools: ['b'], mcpServices: ['s'] })).toEqual(['b']);
    expect(() => turnToolNames(candidates, layers, { tools: ['a'] })).toThrow(
      'Tool "a" is switched off in settings. Available tools: b, c, t__y.',
    );
  });

  it('a one-off selection is exact; --mcp alone replaces the model’s services', () => {
    const layers = { ...none, toggles: { c: true, a: false } };
    expect(turnToolNames(candidates, layers, { tools: ['a'] })).toEqual(['a']);
    expect(turnToolNames(candidates, layers, { tools: [] })).toEqual([]);
    expect(turnToolNames(candidates, layers, { tools: ['t__y'] })).toEqual(['t__y']);
    expect(turnToolNames(candidates, layers, { mcpServices: ['mcp_s'] })).toEqual([
      'b',
      'c',
      's__x',
    ]);
    expect(() => turnToolNames(candidates, layers, { tools: ['nope'] })).toThrow(
      'Tool "nope" does not exist.',
    );
  });

  it('decideTools names the deciding layer and the model default', () => {
    const decisions = decideTools(candidates, {
      switches: { c: false },
      model: { defaultTools: ['a'], defaultMcpServices: [] },
      toggles: { b: true, a: false },
    });
    expect(decisions.map(({ name, on, layer, defaultOn }) => [name, on, layer, defaultOn])).toEqual(
      [
        ['a', false, 'conversation-off', true],
        ['b', true, 'conversation-on', false],
        ['c', false, 'global-off', false],
        ['s__x', false, 'not-model-default', false],
        ['t__y', false, 'not-model-default', false],
      ],
    );
  });
});
