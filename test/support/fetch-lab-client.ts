/**
 * The code under test, run inside the lab's client namespace (no default route):
 *   node --import tsx fetch-lab-client.ts '<json options>'
 * Reads one JSON command per stdin line, runs the real guarded fetcher or a real tool built on
 * it, and answers one JSON line per command. Names resolve only through the test resolver in
 * the command (a table, optionally "rebinding": different answers on successive lookups).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createInterface } from 'node:readline';
import { createGuardedFetcher } from '../../src/main/adapters/fetch/guarded-fetcher';
import type { HostResolver, ResolvedAddress, WebResourceFetcher } from '../../src/main/core/ports';
import { openExchange } from '../../src/main/adapters/fetch/http-exchange';
import { createPdfTextExtractor } from '../../src/main/adapters/fetch/pdf-text-extractor';
import { checkUrl } from '../../src/main/policy/url-policy';
import { createFetchImageTool } from '../../src/main/tools/fetch-image';
import { createWebFetchTool } from '../../src/main/tools/web-fetch';
import type { LabAnswer, LabCommand, LabResolverSpec } from './fetch-lab-protocol';

const options: { caPath: string } = JSON.parse(process.argv[2] ?? '{}');
const extraCaCertificates = [readFileSync(options.caPath, 'utf8')];
const pdf = createPdfTextExtractor();
const logger = { debug() {}, info() {}, warn() {}, error() {} };

function testResolver(spec: LabResolverSpec, lookups: string[]): HostResolver {
  const counts = new Map<string, number>();
  return {
    resolve: (hostname) => {
      lookups.push(hostname);
      const count = counts.get(hostname) ?? 0;
      counts.set(hostname, count + 1);
      const sequence = spec.sequences?.[hostname];
      const answers = sequence
        ? (sequence[Math.min(count, sequence.length - 1)] ?? [])
        : spec.hosts[hostname];
      if (!answers) {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        error.code = 'ENOTFOUND';
        return Promise.reject(error);
      }
      return Promise.resolve(
        answers.map((address): ResolvedAddress => ({
          address,
          family: address.includes(':') ? 6 : 4,
        })),
      );
    },
  };
}

async function run(command: LabCommand): Promise<LabAnswer> {
  const started = Date.now();
  const lookups: string[] = [];
  const fetcher: WebResourceFetcher = createGuardedFetcher({
    resolver: testResolver(command.resolver, lookups),
    limits: command.limits ?? {},
    extraCaCertificates,
  });
  const controller = new AbortController();
  if (command.cancelAfterMs !== undefined) {
    setTimeout(() => controller.abort(new Error('cancelled by the test')), command.cancelAfterMs);
  }
  const answer = (fields: Partial<LabAnswer>): LabAnswer => ({
    id: command.id,
    elapsedMs: Date.now() - started,
    lookups,
    ...fields,
  });
  try {
    if (command.operation === 'raw') return answer({ raw: await rawGet(command.url ?? '') });
    if (command.operation === 'exchange') return answer({ raw: await exchange(command) });
    if (command.operation === 'fetch') {
      const accept = command.accept ?? ['*'];
      const result = await fetcher.fetch({
        url: command.url ?? '',
        signal: controller.signal,
        accept: '*/*',
        checkMediaType: (type) =>
          accept.includes('*') || accept.includes(type) ? null : `refused type ${type}`,
      });
      if (!result.ok) return answer({ fetch: { ok: false, error: result.error } });
      const { resource } = result;
      const text = Buffer.from(resource.body.subarray(0, 4000)).toString('utf8');
      return answer({
        fetch: {
          ok: true,
          finalUrl: resource.finalUrl,
          mediaType: resource.mediaType,
          size: resource.body.byteLength,
          text,
        },
      });
    }
    const context = { conversationId: 'conv_lab', signal: controller.signal, logger };
    if (command.operation === 'web_fetch') {
      const output = await createWebFetchTool({ fetcher, pdf }).execute(
        command.args ?? {},
        context,
      );
      return answer({ tool: { content: output.content, isError: output.isError === true } });
    }
    const staged: NonNullable<LabAnswer['staged']> = [];
    const downloads = {
      stageDownload: (conversationId: string, name: string, bytes: Uint8Array) => {
        staged.push({
          conversationId,
          name,
          size: bytes.byteLength,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        });
        return Promise.resolve(`/workspace/downloads/${name}`);
      },
    };
    const tool = createFetchImageTool({
      fetcher,
      downloads: command.noSandbox ? null : downloads,
      scratchConversationId: 'scratch',
    });
    const output = await tool.execute(command.args ?? {}, context);
    return answer({ tool: { content: output.content, isError: output.isError === true }, staged });
  } catch (error) {
    return answer({ thrown: error instanceof Error ? error.message : String(error) });
  }
}

/** One pinned exchange with a caller-chosen "checked" address list (socket peer check test). */
async function exchange(
  command: LabCommand,
): Promise<{ status: number; body: string } | { error: string }> {
  const verdict = checkUrl(command.url ?? '', { allowNonDefaultPorts: false });
  if (!verdict.ok) return { error: verdict.reason };
  try {
    const response = await openExchange({
      target: verdict.target,
      addresses: (command.addresses ?? []).map((address) => ({
        address,
        family: address.includes(':') ? 6 : 4,
      })),
      headers: {},
      headersTimeoutMs: 5_000,
      maxHeaderBytes: 16_384,
      signal: new AbortController().signal,
      extraCaCertificates,
    });
    response.body.destroy();
    return { status: response.status, body: '' };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function rawGet(url: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const request = get(url, { timeout: 5_000 }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error) => resolve({ error: error.message }));
  });
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const command: LabCommand = JSON.parse(line);
  void run(command).then((result) =>
    process.stdout.write(`${JSON.stringify({ event: 'answer', ...result })}\n`),
  );
});
lines.on('close', () => process.exit(0));
process.stdout.write(`${JSON.stringify({ event: 'ready' })}\n`);
