/**
 * The unit project's rule, enforced: unit tests run on in-memory fakes of the ports and open no
 * socket — no server listening, no connection (TCP, Unix or named pipe). A test that needs one
 * belongs to test/integration. Child-process pipes are not affected.
 */
import net from 'node:net';

const RULE =
  'unit tests open no sockets (in-memory fakes of the ports); move this test to test/integration';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function guardedListen(this: net.Server, ...args: unknown[]) {
  void listen;
  throw new Error(`${RULE}: a server tried to listen (${JSON.stringify(args[0] ?? null)})`);
} as typeof net.Server.prototype.listen;

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  void connect;
  throw new Error(`${RULE}: a socket tried to connect (${JSON.stringify(args[0] ?? null)})`);
} as typeof net.Socket.prototype.connect;
