import { McpError as SdkMcpError } from '@modelcontextprotocol/sdk/types.js';
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
const NEWER = `${ORIGIN} speaks protocol 2026-07-28, which this version of Aivory does not support (it speaks MCP 2024-10-07 to 2025-11-25)`;

describe('protocol revisions', () => {
  it('speaks the SDK revisions up to 2025-11-25', () => {
    expect(SPOKEN_REVISIONS).toContain('2025-11-25');
    expect(SPOKEN_REVISIONS).not.toContain('2026-07-28');
    expect(speaksNone(['2026-07-28'])).toBe(true);
    expect(speaksNone(['2026-07-28', '2025-06-18'])).toBe(false);
  });

  it('reads a version refusal naming only revisions it does not speak', () => {
    const refusal = (supported: unknown) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32022, message: 'Unsupported protocol version', data: { supported } },
      });
    expect(refusalInBody(refusal(['2026-07-28']))).toEqual(['2026-07-28']);
    expect(refusalInBody(refusal(['2026-07-28', '2025-11-25']))).toBeNull();
    expect(refusalInBody(refusal('2026-07-28'))).toBeNull();
    expect(refusalInBody('Bad Request: No valid session ID provided')).toBeNull();
    // What the server sends is bounded: a few revisions, one line each.
    const named = refusalInBody(refusal(['a\nb'.repeat(50), 'x', 'y', 'z', 'w', 'v']));
    expect(named).toHaveLength(4);
    expect(named?.[0]).not.toContain('\n');
    expect(named?.[0]?.length).toBeLessThanOrEqual(40);
  });

  it('names the revision instead of "not an MCP server"', () => {
    const error = unsupportedRevision(ORIGIN, ['2026-07-28']);
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
    const refused = new SdkMcpError(-32022, 'Unsupported protocol version', {
      supported: ['2026-07-28'],
      requested: '2025-11-25',
    });
    expect(classifyFailure(refused, connecting, 'nonce').message.startsWith(NEWER)).toBe(true);
    // Afterwards, or naming a revision it speaks, it is the server's own error.
    const later = classifyFailure(refused, { ...connecting, phase: 'request' }, 'nonce');
    expect(later.kind).toBe('server-error');
  });
});
