import { describe, expect, it } from 'vitest';
import type { ToolCandidate } from '../../../src/main/core/ports';
import {
  capTurnTools,
  decideTools,
  MAX_TURN_TOOLS,
  turnToolNames,
} from '../../../src/main/services/tool-selection';

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

describe('the cap on tools per request', () => {
  // 3 built-ins, then 3 services of 50 tools each: 153 tools.
  const many: ToolCandidate[] = [
    builtIn('web_fetch'),
    builtIn('save_memory'),
    builtIn('use_skill'),
    ...['alpha', 'beta', 'gamma'].flatMap((service) =>
      Array.from({ length: 50 }, (_, index) => mcp(`${service}__t${index}`, service)),
    ),
  ];
  const names = many.map((candidate) => candidate.name);

  it('leaves a list within the cap as it is', () => {
    expect(capTurnTools(many, names.slice(0, 128))).toEqual({
      names: names.slice(0, 128),
      dropped: [],
    });
    expect(MAX_TURN_TOOLS).toBe(128);
  });

  it('keeps the built-ins and the first services in order, dropping the rest', () => {
    const capped = capTurnTools(many, names);
    expect(capped.names).toHaveLength(128);
    expect(capped.names.slice(0, 3)).toEqual(['web_fetch', 'save_memory', 'use_skill']);
    expect(capped.dropped).toEqual(names.slice(128));
    expect(capped.dropped[0]).toBe('gamma__t25');
  });

  it('prefers the services the turn chose, then the tools it named, keeping the order', () => {
    const chosen = capTurnTools(many, names, { mcpServices: ['gamma'] });
    expect(chosen.names).toHaveLength(128);
    expect(chosen.names.filter((name) => name.startsWith('gamma__'))).toHaveLength(50);
    expect(chosen.names.slice(0, 3)).toEqual(['web_fetch', 'save_memory', 'use_skill']);
    // alpha (50) fills up, beta gets what is left: 128 - 3 - 50 - 50 = 25.
    expect(chosen.names.filter((name) => name.startsWith('beta__'))).toHaveLength(25);
    expect(chosen.names.indexOf('gamma__t0')).toBeGreaterThan(chosen.names.indexOf('beta__t0'));
    const named = capTurnTools(many, names, {
      tools: ['beta__t49'],
      mcpServices: ['mcp_gamma'],
    });
    expect(named.names).toContain('beta__t49');
    expect(named.names.filter((name) => name.startsWith('gamma__'))).toHaveLength(50);
    expect(named.dropped).not.toContain('beta__t49');
  });

  it("drops the services' resource readers (no candidates) first", () => {
    const readers = ['alpha__read_resource', 'beta__read_resource', 'gamma__read_resource'];
    const within = capTurnTools(many, [...names.slice(0, 125), ...readers.slice(0, 2)]);
    expect(within.dropped).toEqual([]);
    const capped = capTurnTools(many, [...names.slice(0, 127), ...readers]);
    expect(capped.names).toEqual([...names.slice(0, 127), 'alpha__read_resource']);
    expect(capped.dropped).toEqual(['beta__read_resource', 'gamma__read_resource']);
  });

  it('keeps built-ins even past the cap of a tiny limit', () => {
    const capped = capTurnTools(many, names, { mcpServices: ['beta'] }, 4);
    expect(capped.names).toEqual(['web_fetch', 'save_memory', 'use_skill', 'beta__t0']);
  });
});
