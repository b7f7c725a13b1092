import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  completeByDefault,
  childEnvironment,
  forwardLines,
  MAX_STDERR_LINE,
  parseServiceUrl,
} from '../../../../src/main/adapters/mcp/mcp-transports';

describe('forwardLines', () => {
  it('splits on newlines, joins split lines and UTF-8 characters, and flushes the tail', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    void forwardLines(stream, (line) => lines.push(line));
    const euro = Buffer.from('€');
    stream.write('one\r\ntw');
    stream.write(Buffer.concat([Buffer.from('o '), euro.subarray(0, 1)]));
    stream.write(Buffer.concat([euro.subarray(1), Buffer.from('\nlast')]));
    stream.end();
    await new Promise((done) => stream.on('end', done));
    expect(lines).toEqual(['one', 'two €', 'last']);
  });

  it('cuts an endless line once and drains a stream nobody listens to', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    void forwardLines(stream, (line) => lines.push(line));
    stream.write('x'.repeat(MAX_STDERR_LINE + 10));
    stream.write('y'.repeat(100));
    stream.write('\nnext\n');
    stream.end();
    await new Promise((done) => stream.on('end', done));
    expect(lines).toEqual([`${'x'.repeat(MAX_STDERR_LINE)}…`, 'next']);
    const unheard = new PassThrough();
    void forwardLines(unheard);
    unheard.end('data\n');
    await new Promise((done) => unheard.on('end', done));
  });

  it('survives a listener that throws', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    void forwardLines(stream, (line) => {
      lines.push(line);
      throw new Error('sink broke');
    });
    stream.end('a\nb\n');
    await new Promise((done) => stream.on('end', done));
    expect(lines).toEqual(['a', 'b']);
  });
});

describe('endpoint checks', () => {
  it('builds a minimal child environment: the essentials of the user one plus the service variables', () => {
    expect(
      childEnvironment(
        {
          PATH: '/bin',
          HOME: '/home/u',
          LC_ALL: 'C.UTF-8',
          HTTPS_PROXY: 'http://proxy:3128',
          GONE: undefined,
          X: 'base',
          AIVORY_API_KEY: 'sk-secret',
          SANDBOX_API_KEY: 'sandbox-secret',
          AWS_SECRET_ACCESS_KEY: 'aws',
          NODE_OPTIONS: '--require /tmp/evil.js',
          BASH_FUNC_x: '() { id; }',
          TZ: '() { evil; }',
        },
        { X: 'service', TOKEN: 't' },
      ),
    ).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      LC_ALL: 'C.UTF-8',
      HTTPS_PROXY: 'http://proxy:3128',
      X: 'service',
      TOKEN: 't',
    });
  });

  it("refuses to start with a loader variable of the service's the user did not allow", () => {
    const base = { PATH: '/bin', LD_PRELOAD: '/inherited.so' };
    const payload = '--import=data:text/javascript,evil()';
    expect(() => childEnvironment(base, { NODE_OPTIONS: payload, X: '1' })).toThrow(
      expect.objectContaining({
        kind: 'spawn',
        message: expect.stringContaining('NODE_OPTIONS is a loader variable') as string,
      }),
    );
    expect(() => childEnvironment(base, { ld_preload: '/x.so' }, ['NODE_OPTIONS'])).toThrow(
      /ld_preload is a loader variable/,
    );
    // Allowed for this service: it reaches the child (and an inherited one never does).
    expect(childEnvironment(base, { NODE_OPTIONS: payload }, ['NODE_OPTIONS'])).toEqual({
      PATH: '/bin',
      NODE_OPTIONS: payload,
    });
  });

  it('accepts http(s) URLs without credentials only', () => {
    expect(parseServiceUrl('http://127.0.0.1:3000/mcp').origin).toBe('http://127.0.0.1:3000');
    expect(() => parseServiceUrl('ftp://x/')).toThrow('not supported');
    expect(() => parseServiceUrl('http://user:pw@x/')).toThrow('must not contain');
    expect(() => parseServiceUrl('not a url')).toThrow('is not a valid URL');
  });
});

describe('completeByDefault (2026-07-28 results without resultType)', () => {
  it('marks a result without resultType complete and leaves everything else alone', () => {
    const bare = { jsonrpc: '2.0', id: 3, result: { content: [] } };
    expect(completeByDefault(bare)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { content: [], resultType: 'complete' },
    });
    expect(bare.result).toEqual({ content: [] });
    const asking = { jsonrpc: '2.0', id: 4, result: { resultType: 'input_required' } };
    expect(completeByDefault(asking)).toBe(asking);
    const failed = { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'no' } };
    expect(completeByDefault(failed)).toBe(failed);
    const note = { jsonrpc: '2.0', method: 'notifications/message', params: {} };
    expect(completeByDefault(note)).toBe(note);
    expect(completeByDefault({ jsonrpc: '2.0', id: 6, result: [1] })).toEqual({
      jsonrpc: '2.0',
      id: 6,
      result: [1],
    });
  });
});
