/**
 * The counter MCP server (mcp-counter-server.ts) as a child process: listens on the port given
 * (0: a free one) and writes one JSON line per event — `{listening}`, `{session}`, `{unknown}`.
 */
import { startCounterServer } from './mcp-counter-server';

const port = Number(process.argv[2] ?? '0');
const write = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);
startCounterServer(port, write).then(
  (server) => write({ listening: server.port }),
  (error: unknown) => {
    process.stderr.write(`counter server: ${String(error)}\n`);
    process.exit(1);
  },
);
