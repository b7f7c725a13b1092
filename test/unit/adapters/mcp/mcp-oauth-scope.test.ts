/**
 * The scope of a step-up sign-in (SEP-2350): the saved token's granted scope plus the challenged
 * one, so the new token still covers what the old one did (auth/scope-step-up of the conformance
 * suite 0.2.0-alpha.12: its server wants `mcp:basic` for every request but the handshake, and the
 * 2026-07-28 handshake, `server/discover`, is such a request).
 */
import { describe, expect, it } from 'vitest';
import { withGrantedScope } from '../../../../src/main/adapters/mcp/mcp-oauth';

describe('withGrantedScope', () => {
  it('asks a step-up for the granted scope and the challenged one, each once', () => {
    const state = { tokens: { access_token: 't', token_type: 'Bearer', scope: 'mcp:basic  read' } };
    expect(withGrantedScope({ stepUp: true, scope: 'mcp:write read' }, state)).toEqual({
      stepUp: true,
      scope: 'mcp:basic read mcp:write',
    });
  });

  it('leaves a first sign-in, a challenge without scope and an unknown grant alone', () => {
    const state = { tokens: { access_token: 't', token_type: 'Bearer', scope: 'mcp:basic' } };
    const first = { stepUp: false, scope: 'mcp:write' };
    expect(withGrantedScope(first, state)).toBe(first);
    const bare = { stepUp: true };
    expect(withGrantedScope(bare, state)).toBe(bare);
    const unknown = { stepUp: true, scope: 'mcp:write' };
    expect(withGrantedScope(unknown, {})).toBe(unknown);
  });
});
