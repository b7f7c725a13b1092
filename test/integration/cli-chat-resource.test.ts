/**
 * `aivory chat --attach-resource SERVICE URI` through the real binary, against real MCP servers
 * (server-everything's Markdown documents and text template; the SDK resource lab's PNG, PDF and
 * two-part resource) and a scripted model: the resource reaches the model exactly as the same
 * file given to `--attach` would; binary parts are typed from their bytes (a PNG goes to a vision
 * model as an image); the files are stored under the conversation and staged unchanged in the
 * sandbox's /workspace/uploads (real Docker); unknown or disabled services, unknown URIs and a
 * server's hostile error text give clear one-line errors before any turn; the upload caps count
 * resources and `--attach` files together.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireDockerAndImage } from '../../sandbox/test/support/docker-fixture';
import { addEnabledMcpService } from '../support/mcp-cli-setup';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import type { ResourceServer } from '../support/mcp-resource-server';
import {
  NOTE_TEXT,
  RED_PNG,
  RESOURCES,
  startResourceServer,
  TINY_PDF,
} from '../support/mcp-resource-server';
import type { CliResult } from '../support/run-cli';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';
import type { RecordedRequest, ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';

const FEATURES = 'demo://resource/static/document/features.md';
/** A service name with spaces and a non-ASCII letter: one argv token, no quoting rules. */
const LAB = 'Resource lab Ω';
const OFF = 'lab switched off';
const MIB = 1024 * 1024;

type WireContent = string | { type: string; text?: string; image_url?: { url: string } }[];

/** The last user message of a recorded chat-completions request. */
function lastUserContent(request: RecordedRequest | undefined): WireContent {
  const messages = (request?.body.messages ?? []) as { role: string; content: WireContent }[];
  const user = messages.filter((message) => message.role === 'user').at(-1);
  if (!user) throw new Error('no user message in the request');
  return user.content;
}

/** The conversation a `--json` run wrote to (its first event carries the id). */
function conversationOf(result: CliResult): string {
  return String(jsonLines(result.stdout)[0]?.conversationId);
}

const digest = (data: Buffer | Uint8Array) =>
  createHash('sha256').update(data).digest('hex').slice(0, 12);

describe('aivory chat --attach-resource', () => {
  let everything: EverythingServer;
  let lab: ResourceServer;
  let home = '';
  let env: NodeJS.ProcessEnv = {};
  let llm: ScriptedLlmServer | null = null;

  const chatBase = (server: ScriptedLlmServer) => [
    'chat',
    '--json',
    '--base-url',
    server.baseUrl,
    '--model',
    'scripted-model',
    '--tools',
    'none',
  ];

  beforeAll(async () => {
    everything = await startEverythingServer('streamableHttp');
    lab = await startResourceServer();
    home = makeDataDir();
    env = cliEnv(home);
    await addEnabledMcpService(env, {
      name: 'everything',
      url: everything.url,
      description: 'The reference server.',
    });
    await addEnabledMcpService(env, { name: LAB, url: lab.url, description: 'Files.' });
    // Added, never enabled: a disabled service.
    const added = await runCli(
      ['mcp', 'add', '--name', OFF, '--url', lab.url, '--description', 'Off.'],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await everything?.stop();
    await lab?.close();
  });
  afterEach(async () => {
    await llm?.close();
    llm = null;
  });

  it('a text resource reaches the model exactly as the same file given to --attach', async () => {
    llm = await startScriptedLlmServer(() => ({ content: 'It lists features.' }));
    const attached = await runCli(
      [...chatBase(llm), '--attach-resource', 'everything', FEATURES, 'What does it list?'],
      env,
    );
    expect(attached.stderr).toBe('');
    expect(attached.code).toBe(0);
    // Stored under the conversation: the resource's text, as `aivory mcp resource` prints it.
    const stored = join(home, 'uploads', conversationOf(attached), 'features.md');
    const text = readFileSync(stored, 'utf8');
    const read = await runCli(['mcp', 'resource', 'everything', FEATURES], env);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout.trimEnd()).toBe(text.trimEnd());
    expect(text).toMatch(/^# Everything Server/);
    const fromResource = lastUserContent(llm.requests.at(-1));
    expect(fromResource).toContain(
      `What does it list?\n\n[Attached files]\n- features.md (text/markdown, `,
    );
    expect(fromResource).toContain(`<file name="features.md">\n${text.slice(0, 200)}`);
    // The text is untrusted content the turn starts with, as an attached file's is.
    expect(jsonLines(attached.stdout).find((event) => event.type === 'turn-tainted')).toMatchObject(
      { reasons: [{ tool: 'attachment', detail: 'features.md' }] },
    );

    const file = join(makeDataDir(), 'features.md');
    writeFileSync(file, text);
    const uploaded = await runCli([...chatBase(llm), '--attach', file, 'What does it list?'], env);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(lastUserContent(llm.requests.at(-1))).toBe(fromResource);

    // A filled-in template URI, and --attach-resource=SERVICE URI, twice: two files.
    const templated = await runCli(
      [
        ...chatBase(llm),
        '--attach-resource=everything',
        'demo://resource/dynamic/text/3',
        '--attach-resource',
        'everything',
        'demo://resource/dynamic/blob/4',
        'Compare them',
      ],
      env,
    );
    expect(templated.code, templated.stderr).toBe(0);
    const both = lastUserContent(llm.requests.at(-1));
    expect(both).toMatch(/\n- 3\.txt \(text\/plain, \d+ B\)\n<file name="3\.txt">\nResource 3/);
    expect(both).toMatch(/\n- 4\.txt \(text\/plain, \d+ B\)\n<file name="4\.txt">\nResource 4/);
  }, 120_000);

  it('binary parts are typed from their bytes: a PNG goes to a vision model as an image', async () => {
    llm = await startScriptedLlmServer(() => ({ content: 'A red square and a report.' }));
    const note = join(makeDataDir(), 'plan.txt');
    writeFileSync(note, 'Plan: look.');
    const result = await runCli(
      [
        ...chatBase(llm),
        '--vision',
        '--attach',
        note,
        '--attach-resource',
        LAB,
        RESOURCES.image,
        '--attach-resource',
        ` ${LAB} `,
        RESOURCES.pdf,
        'What do you see?',
      ],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const content = lastUserContent(llm.requests.at(-1));
    if (typeof content === 'string') throw new Error('expected content parts');
    expect(content.map((part) => part.type)).toEqual(['text', 'image_url']);
    // --attach files first, then the resources in the order given.
    expect(content[0]?.text).toContain(
      `[Attached files]\n- plan.txt (text/plain, 11 B)\n<file name="plan.txt">\nPlan: look.\n</file>\n- red square.png (image/png, ${RED_PNG.byteLength} B)\n- report.pdf (application/pdf, ${TINY_PDF.byteLength} B)`,
    );
    expect(content[1]?.image_url?.url).toBe(`data:image/png;base64,${RED_PNG.toString('base64')}`);
    const folder = join(home, 'uploads', conversationOf(result));
    expect(readFileSync(join(folder, 'red square.png')).equals(RED_PNG)).toBe(true);
    expect(readFileSync(join(folder, 'report.pdf')).equals(TINY_PDF)).toBe(true);

    const exported = await runCli(
      ['conversations', 'export', conversationOf(result), '--format', 'json'],
      env,
    );
    const document = JSON.parse(exported.stdout) as {
      messages: { parts: { kind: string; attachment?: { name: string; mime: string } }[] }[];
    };
    expect(
      document.messages[0]?.parts.flatMap((part) =>
        part.attachment ? [[part.attachment.name, part.attachment.mime]] : [],
      ),
    ).toEqual([
      ['plan.txt', 'text/plain'],
      ['red square.png', 'image/png'],
      ['report.pdf', 'application/pdf'],
    ]);
  }, 120_000);

  it('unknown or disabled services, unknown URIs and bad usage: one clear line, no turn', async () => {
    llm = await startScriptedLlmServer(() => ({ content: 'Never asked.' }));
    const chat = (args: string[]) =>
      runCli([...chatBase(llm as ScriptedLlmServer), ...args, 'Read it'], env);

    const unknown = await chat(['--attach-resource', 'nope', RESOURCES.note]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `aivory: --attach-resource "nope" "${RESOURCES.note}": No MCP service named "nope" (see aivory mcp list).\n`,
    );

    const off = await chat(['--attach-resource', OFF, RESOURCES.note]);
    expect(off.code).toBe(2);
    expect(off.stderr).toBe(
      `aivory: --attach-resource "${OFF}" "${RESOURCES.note}": the MCP service is disabled (aivory mcp enable '${OFF}')\n`,
    );

    const missing = await chat([
      '--attach-resource',
      'everything',
      'demo://resource/dynamic/blob/zero',
    ]);
    // The server answered with an error: a failed request (1), not a connection problem (3).
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^aivory: --attach-resource "everything" "demo:\/\/resource\/dynamic\/blob\/zero": .*Unknown resource: demo:\/\/resource\/dynamic\/blob\/zero\n$/,
    );

    // The SDK server repeats the URI in its error: escape codes and bells never reach the
    // terminal, and the line stays bounded.
    const hostile = `test://nope/\u001b[31mred\u0007${'x'.repeat(1_500)}`;
    const server = await chat(['--attach-resource', LAB, hostile]);
    expect(server.code).toBe(1);
    expect(server.stderr).toMatch(
      /^aivory: --attach-resource "Resource lab Ω" "test:\/\/nope\/ \[31mred x+… \(\+\d+ characters\)": .* answered resources\/read with an error: Resource test:\/\/nope\//,
    );
    // eslint-disable-next-line no-control-regex -- asserting that none are left
    expect(server.stderr.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(server.stderr.length).toBeLessThan(1_200);

    for (const [args, message] of [
      [['--attach-resource', 'everything'], 'takes two values'],
      [['--attach-resource', '  ', FEATURES], 'needs a service name'],
      [['--attach-resource', 'everything', ''], 'needs a URI'],
      [['--attach-resource', 'everything', `demo://${'a'.repeat(2_100)}`], 'at most 2048'],
    ] as const) {
      const bad = await runCli([...chatBase(llm), ...args], env);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toContain(`aivory: --attach-resource`);
      expect(bad.stderr).toContain(message);
    }

    const regenerate = await runCli(
      [
        ...chatBase(llm),
        '--conversation',
        'conv_x',
        '--regenerate',
        '--attach-resource',
        'everything',
        FEATURES,
      ],
      env,
    );
    expect(regenerate.code).toBe(2);
    expect(regenerate.stderr).toContain('give no MESSAGE, --attach or --attach-resource');

    expect(llm.requests).toHaveLength(0);
    const listed = await runCli(['conversations', 'list'], env);
    expect(listed.stdout).not.toContain('Read it');
  }, 120_000);

  it('the upload caps count resources and --attach files together', async () => {
    llm = await startScriptedLlmServer(() => ({ content: 'Never asked.' }));
    const folder = makeDataDir();
    try {
      const small = Array.from({ length: 9 }, (_, index) => {
        const path = join(folder, `note-${index}.txt`);
        writeFileSync(path, `note ${index}`);
        return ['--attach', path];
      }).flat();
      // 9 files + the pair resource's 2 = 11: one too many.
      const many = await runCli(
        [...chatBase(llm), ...small, '--attach-resource', LAB, RESOURCES.pair, 'Too many'],
        env,
      );
      expect(many.code).toBe(2);
      expect(many.stderr).toBe(
        'aivory: At most 10 files can be attached to one message (got 11).\n',
      );
      // 9 + the note's 1 = 10: allowed.
      const ten = await runCli(
        [...chatBase(llm), ...small, '--attach-resource', LAB, RESOURCES.note, 'Just right'],
        env,
      );
      expect(ten.code, ten.stderr).toBe(0);
      expect(lastUserContent(llm.requests.at(-1))).toContain(
        `<file name="meeting.md">\n${NOTE_TEXT}`,
      );

      // Files 1 KiB under 100 MiB together, plus the resource's bytes: over by a little.
      const big = [40 * MIB, 40 * MIB, 20 * MIB - NOTE_TEXT.length + 1].map((size, index) => {
        const path = join(folder, `big-${index}.bin`);
        writeFileSync(path, Buffer.alloc(size));
        return ['--attach', path];
      });
      const heavy = await runCli(
        [...chatBase(llm), ...big.flat(), '--attach-resource', LAB, RESOURCES.note, 'Too big'],
        env,
      );
      expect(heavy.code).toBe(2);
      expect(heavy.stderr).toMatch(
        /^aivory: The attached files add up to 100\.1 MiB; one message can carry 100 MiB\.\n$/,
      );
      expect(llm.requests).toHaveLength(1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('aivory chat --attach-resource in the sandbox', () => {
  let lab: ResourceServer;
  let llm: ScriptedLlmServer | null = null;
  beforeAll(async () => {
    lab = await startResourceServer();
  });
  afterAll(async () => {
    await llm?.close();
    await lab?.close();
  });

  it('the resource files are staged unchanged in /workspace/uploads, like --attach files', async () => {
    requireDockerAndImage();
    const listing =
      "import os, hashlib\nfor name in sorted(os.listdir('/workspace/uploads')):\n    print(name, hashlib.sha256(open('/workspace/uploads/' + name, 'rb').read()).hexdigest()[:12])";
    const code = JSON.stringify({ name: 'python_execute', arguments: { code: listing } });
    llm = await startScriptedLlmServer([
      { content: `<tool_call>${code}</tool_call>` },
      { content: 'Listed.' },
    ]);
    const home = makeDataDir();
    const env = cliEnv(home, { AIVORY_LOCAL_SANDBOX: '1' });
    await addEnabledMcpService(env, { name: LAB, url: lab.url, description: 'Files.' });
    const result = await runCli(
      [
        'chat',
        '--json',
        '--base-url',
        llm.baseUrl,
        '--model',
        'scripted-model',
        '--tool-mode',
        'prompt',
        '--tools',
        'python_execute',
        '--attach-resource',
        LAB,
        RESOURCES.pair,
        '--attach-resource',
        LAB,
        RESOURCES.pdf,
        'List my files',
      ],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(lastUserContent(llm.requests[0])).toContain(
      '- pixel.png (image/png, 70 B) at /workspace/uploads/pixel.png',
    );
    const output = jsonLines(result.stdout).find((event) => event.type === 'tool-result') as {
      output: string;
    };
    expect(output.output).toContain(
      `stdout:\npixel.png ${digest(RED_PNG)}\nreadme.txt ${digest(Buffer.from('Read me first.'))}\nreport.pdf ${digest(TINY_PDF)}\n`,
    );
  }, 180_000);
});
