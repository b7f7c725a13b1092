/**
 * The unit project's no-sockets rule is in force (test/support/no-sockets.setup.ts): a server
 * cannot listen and a socket cannot connect, over TCP or a Unix socket.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';

const RULE = /unit tests open no sockets .* move this test to test\/integration/;

describe('unit tests open no sockets', () => {
  it('a server cannot listen', () => {
    const server = net.createServer();
    expect(() => server.listen(0, '127.0.0.1')).toThrow(RULE);
    expect(server.listening).toBe(false);
  });

  it('a socket cannot connect, by TCP or by path, nor through fetch', async () => {
    expect(() => net.connect(9, '127.0.0.1')).toThrow(RULE);
    expect(() => net.connect('/var/run/docker.sock')).toThrow(RULE);
    const failure = await fetch('http://127.0.0.1:1234/').then(
      () => null,
      (error: unknown) => error,
    );
    expect(String((failure as Error | null)?.cause)).toMatch(RULE);
  });
});
