import { ProtocolError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../../../src/main/adapters/mcp/mcp-errors';
import type { FailureContext } from '../../../../src/main/adapters/mcp/mcp-errors';
import {
  refusalInBody,
  speaksNone,
  SPOKEN_REVISIONS,
  unsupportedRevision,
} from '../../../../src/main/adapters/mcp/mcp-revision';

const ORIGIN = 'https://mcp.example.test';
const connecting: FailureContext = {
  phase: 'connect',
  server: ORIGIN,
  what: 'the MCP handshake',
  transport: 'stdio',
  timeoutMs: 2500,
};
const NEWER = `${ORIGIN} speaks protocol 2099-01-01, which this version of Aivory does not support (it speaks MCP 2024-10-07 to 2026-07-28)`;

describe('protocol revisions', () => {
  it('speaks the SDK revisions 2024-10-07 to 2026-07-28', () => {
    expect(SPOKEN_REVISIONS).toContain('2024-10-07');
    expect(SPOKEN_REVISIONS).toContain('2025-11-25');
    expect(SPOKEN_REVISIONS).toContain('2026-07-28');
    expect(speaksNone(['2026-07-28'])).toBe(false);
    expect(speaksNone(['2099-01-01'])).toBe(true);
    expect(speaksNone(['2099-01-01', '2025-06-18'])).toBe(false);
  });

  it('reads a version refusal naming only revisions it does not speak', () => {
    const refusal = (supported: unknown) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32022, message: 'Unsupported protocol version', data: { supported } },
      });
    expect(refusalInBody(refusal(['2099-01-01']))).toEqual(['2099-01-01']);
    // A server of 2026-07-28 refusing the 2025 handshake is connected to at that revision.
    expect(refusalInBody(refusal(['2026-07-28']))).toBeNull();
    expect(refusalInBody(refusal(['2099-01-01', '2025-11-25']))).toBeNull();
    expect(refusalInBody(refusal('2099-01-01'))).toBeNull();
    expect(refusalInBody('Bad Request: No valid session ID provided')).toBeNull();
    // What the server sends is bounded: a few revisions, one line each.
    const named = refusalInBody(refusal(['a\nb'.repeat(50), 'x', 'y', 'z', 'w', 'v']));
    expect(named).toHaveLength(4);
    expect(named?.[0]).not.toContain('\n');
    expect(named?.[0]?.length).toBeLessThanOrEqual(40);
  });

  it('names the revision instead of "not an MCP server"', () => {
    const error = unsupportedRevision(ORIGIN, ['2099-01-01']);
    expect(error.kind).toBe('protocol');
    expect(error.message.startsWith(NEWER)).toBe(true);
  });

  it('names the revision a server answered initialize with', () => {
    const error = classifyFailure(
      new Error("Server's protocol version is not supported: 2099-01-01"),
      connecting,
      'nonce',
    );
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(
      /speaks protocol 2099-01-01, which this version of Aivory does not support/,
    );
  });

  it('names the revisions of a JSON-RPC version refusal during the handshake', () => {
    const refused = new ProtocolError(-32022, 'Unsupported protocol version', {
      supported: ['2099-01-01'],
      requested: '2025-11-25',
    });
    expect(classifyFailure(refused, connecting, 'nonce').message.startsWith(NEWER)).toBe(true);
    // Afterwards, or naming a revision it speaks, it is the server's own error.
    const later = classifyFailure(refused, { ...connecting, phase: 'request' }, 'nonce');
    expect(later.kind).toBe('server-error');
  });
});
