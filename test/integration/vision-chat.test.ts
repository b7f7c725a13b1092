/**
 * Vision input over HTTP (docs/architecture/tools.md, "Attachments and vision input";
 * docs/architecture/turn-taint.md): an image attached to
 * a message reaches a vision model as an `image_url` data part beside the text that names the
 * file, and taints the turn from its start; a model without vision gets only the description.
 * Through the real `aivory` binary (`--vision --attach`) and through the chat service with a
 * saved vision model (a retry re-sends the stored question's image). Also the CLI's usage line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileArtifactSink } from '../../src/main/adapters/artifacts/file-artifact-sink';
import { OpenAiLlmClient } from '../../src/main/adapters/openai/openai-llm-client';
import { FileSecretStore } from '../../src/main/adapters/secrets/file-secret-store';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { ChatService } from '../../src/main/services/chat-service';
import { savedModel } from '../../src/main/services/model-resolution';
import { ToolCatalog } from '../../src/main/services/tool-catalog';
import type { RecordedRequest, Script, ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';
import { chatTurnRunner, recordingLogger } from '../support/turn-harness';

/** A real 1×1 red PNG. */
const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const RED_DATA_URL = `data:image/png;base64,${RED_PNG.toString('base64')}`;

type WireContent = string | { type: string; text?: string; image_url?: { url: string } }[];

/** The last user message of a recorded chat-completions request. */
function lastUserContent(request: RecordedRequest | undefined): WireContent {
  const messages = (request?.body.messages ?? []) as { role: string; content: WireContent }[];
  const user = messages.filter((message) => message.role === 'user').at(-1);
  if (!user) throw new Error('no user message in the request');
  return user.content;
}

const servers: ScriptedLlmServer[] = [];
const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const store of stores.splice(0)) store.close();
});

async function server(script: Script): Promise<ScriptedLlmServer> {
  const started = await startScriptedLlmServer(script);
  servers.push(started);
  return started;
}

describe('aivory chat --vision --attach', () => {
  it('sends the image as an image_url part in both tool modes and taints the turn; without --vision only the description', async () => {
    const home = makeDataDir();
    const image = join(makeDataDir(), 'red.png');
    writeFileSync(image, RED_PNG);
    const llm = await server(() => ({ content: 'It is red.' }));
    const base = ['chat', '--json', '--base-url', llm.baseUrl, '--model', 'scripted-model'];

    for (const toolMode of ['native', 'prompt']) {
      const seen = await runCli(
        [...base, '--tool-mode', toolMode, '--vision', '--attach', image, 'What colour is it?'],
        cliEnv(home),
      );
      expect(seen.stderr).toBe('');
      expect(seen.code).toBe(0);
      const content = lastUserContent(llm.requests.at(-1));
      if (typeof content === 'string') throw new Error('expected content parts');
      expect(content.map((part) => part.type)).toEqual(['text', 'image_url']);
      expect(content[0]?.text).toMatch(
        /^What colour is it\?\n\n\[Attached files\]\n- red\.png \(image\/png, 70 B\)/,
      );
      expect(content[0]?.text).toContain('(Attached below as images, in this order: red.png.)');
      expect(content[1]?.image_url?.url).toBe(RED_DATA_URL);
      const events = jsonLines(seen.stdout);
      const tainted = events.find((event) => event.type === 'turn-tainted');
      expect(tainted).toMatchObject({
        toolCallId: null,
        reasons: [{ tool: 'attachment', detail: 'red.png' }],
      });
      // The taint comes first, before the model is even asked.
      expect(events.findIndex((event) => event.type === 'turn-tainted')).toBeLessThan(
        events.findIndex((event) => event.type === 'text-delta'),
      );
    }

    const plain = await runCli([...base, '--attach', image, 'What colour is it?'], cliEnv(home));
    expect(plain.code).toBe(0);
    const content = lastUserContent(llm.requests.at(-1));
    expect(typeof content).toBe('string');
    expect(content).toContain('- red.png (image/png, 70 B)');
    expect(JSON.stringify(llm.requests.at(-1)?.body)).not.toContain('image_url');
    expect(jsonLines(plain.stdout).some((event) => event.type === 'turn-tainted')).toBe(false);

    // AIVORY_VISION=1 is the same as --vision for a model from the environment.
    const fromEnv = await runCli(
      ['chat', '--json', '--attach', image, 'And now?'],
      cliEnv(home, {
        AIVORY_BASE_URL: llm.baseUrl,
        AIVORY_MODEL: 'scripted-model',
        AIVORY_VISION: '1',
      }),
    );
    expect(fromEnv.code).toBe(0);
    expect(JSON.stringify(lastUserContent(llm.requests.at(-1)))).toContain(RED_DATA_URL);
  });

  it('prints the tokens the provider counted after the answer in text mode, not with --json', async () => {
    const home = makeDataDir();
    const llm = await server(() => ({
      content: 'Hello!',
      usage: { prompt_tokens: 1234, completion_tokens: 56, total_tokens: 1290 },
    }));
    const base = ['chat', '--base-url', llm.baseUrl, '--model', 'scripted-model'];
    const text = await runCli([...base, 'Hi'], cliEnv(home));
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('Hello!\n');
    // The usage, then the line with the id to continue with (issue 22).
    expect(text.stderr).toMatch(
      /^1,234 tokens in · 56 out\nconversation \S+ · continue with: aivory chat --conversation \S+\n$/,
    );

    const json = await runCli([...base, '--json', 'Hi'], cliEnv(home));
    expect(json.stderr).toBe('');
    expect(jsonLines(json.stdout).at(-1)).toMatchObject({
      type: 'turn-end',
      usage: { inputTokens: 1234, outputTokens: 56 },
    });
  });
});

describe('the chat service with a saved vision model', () => {
  it('sends the attached image, records the taint, and a retry sends the stored image again', async () => {
    const llm = await server([
      { status: 500, errorMessage: 'overloaded' },
      { content: 'A red square.' },
    ]);
    const directory = mkdtempSync(join(tmpdir(), 'aivory-vision-'));
    const store = openStore(join(directory, 'aivory.db'));
    stores.push(store);
    const secrets = new FileSecretStore(join(directory, 'secrets.json'));
    store.settings.saveModel({
      id: 'model_vision',
      label: 'Seeing',
      baseUrl: llm.baseUrl,
      model: 'scripted-model',
      toolMode: 'native',
      contextWindow: 32_768,
      defaultTools: [],
      apiKeyRef: null,
      isDefault: true,
      vision: true,
    });
    const saved = store.settings.listModels()[0];
    if (!saved) throw new Error('the model was not saved');
    const model = await savedModel(saved, secrets);
    expect(model.vision).toBe(true);
    let counter = 0;
    const ids = { next: (prefix: string) => `${prefix}_${++counter}` };
    const chat = new ChatService({
      conversations: store.conversations,
      memories: store.memories,
      skills: store.library,
      settings: store.settings,
      tools: new ToolCatalog({
        builtIns: [],
        prepared: {
          names: [],
          build: () => Promise.resolve(null),
          status: () => Promise.resolve(null),
        },
        switches: () => store.settings.getToolAvailability(),
      }),
      createLlmClient: (resolved) =>
        new OpenAiLlmClient({ baseUrl: resolved.baseUrl, apiKey: resolved.apiKey, maxRetries: 0 }),
      clock: { now: () => Date.now() },
      ids,
      logger: recordingLogger(),
      limitOverrides: {},
      attachments: new FileArtifactSink(join(directory, 'uploads')),
    });
    const run = chatTurnRunner(chat, model);

    const failed = await run({
      text: 'Describe it',
      // A PNG named .bin: the bytes decide, not the name.
      attachments: [{ name: 'square.bin', data: new Uint8Array(RED_PNG) }],
    });
    expect(failed.at(-1)).toMatchObject({ type: 'turn-end', stopReason: 'error' });
    const start = failed[0];
    if (start?.type !== 'turn-start') throw new Error('no turn-start');
    expect(JSON.stringify(lastUserContent(llm.requests[0]))).toContain(RED_DATA_URL);

    const retried = await run({ conversationId: start.conversationId, retry: true });
    expect(retried.at(-1)).toMatchObject({ type: 'turn-end', answer: 'A red square.' });
    const content = lastUserContent(llm.requests[1]);
    if (typeof content === 'string') throw new Error('expected content parts');
    expect(content[0]?.text).toContain('- square.bin (image/png, 70 B)');
    expect(content[1]?.image_url?.url).toBe(RED_DATA_URL);
    expect(store.conversations.listTurnRecords(start.conversationId)).toMatchObject([
      { taint: { toolCallId: null, reasons: [{ tool: 'attachment', detail: 'square.bin' }] } },
    ]);
  });
});
