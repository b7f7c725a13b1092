/**
 * The `--command` the conformance suite runs for each scenario: `node client-shim.ts HOST_URL`,
 * to which the suite appends the scenario server's URL. It hands the run to the test's worker
 * (client-host.ts), which runs Aivory's commands in-process, and relays what they print and
 * their exit code. Plain node runs it (no imports, types only): it starts in a few tens of
 * milliseconds.
 */
const [hostUrl, serverUrl] = process.argv.slice(2);
if (!hostUrl || !serverUrl) {
  process.stderr.write('usage: client-shim.ts HOST_URL SERVER_URL (MCP_CONFORMANCE_* set)\n');
  process.exit(2);
}
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => key.startsWith('MCP_CONFORMANCE_') || key === 'BROWSER',
  ),
);
try {
  const response = await fetch(hostUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: serverUrl, env }),
  });
  const { code, stdout, stderr } = (await response.json()) as {
    code: number;
    stdout: string;
    stderr: string;
  };
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = code;
} catch (error) {
  process.stderr.write(`client-shim: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

export {};
