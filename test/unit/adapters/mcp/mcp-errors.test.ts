import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import {
  classifyFailure,
  errorCode,
  injectedFailure,
  INJECTED_FAILURE_CODE,
  networkFailure,
  serverErrorMessage,
} from '../../../../src/main/adapters/mcp/mcp-errors';
import type { FailureContext } from '../../../../src/main/adapters/mcp/mcp-errors';
import { McpError } from '../../../../src/main/core/ports';

const ORIGIN = 'https://mcp.example.test';
const context: FailureContext = {
  phase: 'request',
  server: ORIGIN,
  what: 'MCP tool "t"',
  transport: 'streamable-http',
  timeoutMs: 2500,
};

function fetchError(code: string): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

describe('networkFailure', () => {
  it.each([
    ['ENOTFOUND', 'dns'],
    ['EAI_AGAIN', 'dns'],
    ['ECONNREFUSED', 'refused'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['CERT_HAS_EXPIRED', 'tls'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
    ['ECONNRESET', 'disconnected'],
    ['UND_ERR_SOCKET', 'disconnected'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout'],
    ['EHOSTUNREACH', 'other'],
  ])('maps %s to %s', (code, kind) => {
    const failure = networkFailure(fetchError(code), ORIGIN);
    expect(failure?.kind).toBe(kind);
    expect(failure?.message).not.toContain('\n');
  });

  it('finds a code inside an AggregateError and ignores aborts', () => {
    const aggregate = new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]);
    expect(errorCode(new TypeError('fetch failed', { cause: aggregate }))).toBe('ECONNREFUSED');
    expect(networkFailure(new DOMException('stop', 'AbortError'), ORIGIN)).toBeNull();
  });
});

describe('classifyFailure', () => {
  it('keeps an McpError and names SDK timeouts and closes', () => {
    const own = new McpError('redirect', 'r');
    expect(classifyFailure(own, context, 'n')).toBe(own);
    const timeout = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', {
      timeout: 2500,
    });
    expect(classifyFailure(timeout, context, 'n')).toMatchObject({
      kind: 'timeout',
      message: 'MCP tool "t" timed out after 2.5 s',
    });
    const closed = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    expect(classifyFailure(closed, context, 'n').kind).toBe('disconnected');
    expect(
      classifyFailure(closed, { ...context, phase: 'connect', transport: 'stdio' }, 'n').kind,
    ).toBe('spawn');
    // An aborted request carries the timeout code without a deadline: not a timeout.
    const aborted = new SdkError(SdkErrorCode.RequestTimeout, 'AbortError');
    expect(classifyFailure(aborted, context, 'n').kind).not.toBe('timeout');
  });

  it('reads injected failures only with the right nonce', () => {
    const injected = new ProtocolError(INJECTED_FAILURE_CODE, 'cut', {
      nonce: 'abc',
      kind: 'disconnected',
      message: 'cut off',
    });
    expect(injectedFailure(injected, 'abc')).toMatchObject({
      kind: 'disconnected',
      message: 'cut off',
    });
    expect(injectedFailure(injected, 'forged')).toBeNull();
    expect(serverErrorMessage(injected, 'abc')).toBeNull();
    expect(serverErrorMessage(injected, 'forged')).toBe('cut');
  });

  it('treats other JSON-RPC errors as the server speaking, on one line', () => {
    const server = new ProtocolError(-32602, 'bad\nargs');
    expect(serverErrorMessage(server, 'n')).toBe('bad\nargs');
    expect(classifyFailure(server, context, 'n')).toMatchObject({
      kind: 'server-error',
      message: `${ORIGIN} answered MCP tool "t" with an error: bad args`,
    });
  });

  it('calls unparsable answers not-mcp while connecting and protocol afterwards', () => {
    const syntax = new SyntaxError('Unexpected token <');
    expect(classifyFailure(syntax, { ...context, phase: 'connect' }, 'n').kind).toBe('not-mcp');
    expect(classifyFailure(syntax, context, 'n').kind).toBe('protocol');
  });

  it('maps spawn errors and aborts', () => {
    const enoent = Object.assign(new Error('spawn nope ENOENT'), {
      code: 'ENOENT',
      syscall: 'spawn nope',
    });
    expect(classifyFailure(enoent, { ...context, server: 'command "nope"' }, 'n')).toMatchObject({
      kind: 'spawn',
      message:
        'could not start command "nope": command not found (check the command, PATH and working directory)',
    });
    expect(classifyFailure(new DOMException('x', 'AbortError'), context, 'n').kind).toBe(
      'canceled',
    );
  });

  it('prefers the fetch failure recorded for transports that keep only a message', () => {
    const recorded = new McpError('unauthorized', 'HTTP 401');
    expect(classifyFailure(new Error('SSE error: HTTP 401'), context, 'n', recorded)).toBe(
      recorded,
    );
  });
});
