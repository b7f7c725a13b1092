/**
 * image_generate from the real CLI: hidden until enabled in settings, then a scripted model
 * generates an image (saved on disk, attached) and edits its previous generation, which sends
 * exactly that image back to the (local, fake) Images API.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeImagesServer } from '../support/fake-images-server';
import { startFakeImagesServer } from '../support/fake-images-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';

const call = (args: Record<string, unknown>) =>
  `<tool_call>${JSON.stringify({ name: 'image_generate', arguments: args })}</tool_call>`;

describe('image_generate from a chat', () => {
  let llm: ScriptedLlmServer | null = null;
  let images: FakeImagesServer | null = null;
  afterEach(async () => {
    await llm?.close();
    await images?.close();
  });

  it('is offered once enabled, generates, then edits the previous generation', async () => {
    const home = makeDataDir();
    const env = cliEnv(home);
    expect((await runCli(['tools'], env)).stdout).toMatch(
      /image_generate\thidden\timage generation is off/,
    );

    images = await startFakeImagesServer();
    await runCli(['settings', 'set', 'images.provider', 'openai'], env);
    await runCli(['settings', 'set', 'images.baseUrl', images.baseUrl], env);
    await runCli(['settings', 'set-key', 'images.apiKey', 'sk-images-1234567890abcdef'], env);
    expect((await runCli(['tools'], env)).stdout).toMatch(/image_generate\tavailable/);

    llm = await startScriptedLlmServer([
      { content: call({ prompt: 'a red fox', action: 'generate', base_image: 'none' }) },
      { content: 'Here is the fox.' },
      {
        content: call({
          prompt: 'make it winter',
          action: 'edit',
          base_image: 'previous_generation',
        }),
      },
      { content: 'Now in winter.' },
    ]);
    const base = [
      'chat',
      '--json',
      '--base-url',
      llm.baseUrl,
      '--model',
      'scripted-model',
      '--tool-mode',
      'prompt',
      '--tools',
      'image_generate',
    ];
    const first = await runCli([...base, 'Draw a red fox'], env);
    const firstEvents = jsonLines(first.stdout);
    const generated = firstEvents.find((event) => event.type === 'tool-result') as {
      status: string;
      artifacts: { path: string; mime: string }[];
    };
    expect(generated.status).toBe('ok');
    expect(generated.artifacts[0]?.mime).toBe('image/png');
    expect(readFileSync(generated.artifacts[0]!.path).subarray(1, 4).toString()).toBe('PNG');

    const conversationId = String(firstEvents[0]?.conversationId);
    const second = await runCli([...base, '--conversation', conversationId, 'Make it winter'], env);
    const edited = jsonLines(second.stdout).find((event) => event.type === 'tool-result') as {
      status: string;
    };
    expect(edited.status).toBe('ok');
    const requests = images.requests;
    expect(requests.map((request) => request.path)).toEqual([
      '/v1/images/generations',
      '/v1/images/edits',
    ]);
    expect(requests[1]?.imageNames).toHaveLength(1);
    expect(requests[1]?.imageParts).toBe(1);
    expect(requests[1]?.authorization).toBe('Bearer sk-images-1234567890abcdef');
  }, 120_000);

  it('edits the image attached to the current message, the others as references', async () => {
    const home = makeDataDir();
    const env = cliEnv(home);
    images = await startFakeImagesServer();
    await runCli(['settings', 'set', 'images.provider', 'openai'], env);
    await runCli(['settings', 'set', 'images.baseUrl', images.baseUrl], env);
    llm = await startScriptedLlmServer([
      {
        content: call({
          prompt: 'put the cat on the sofa',
          action: 'edit',
          base_image: 'current_attachment',
          base_image_index: 2,
        }),
      },
      { content: 'Done.' },
      {
        content: call({
          prompt: 'again',
          action: 'edit',
          base_image: 'current_attachment',
          base_image_index: 3,
        }),
      },
      { content: 'Sorry.' },
    ]);
    const png = (marker: number) =>
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.from([marker]),
      ]);
    const sofa = join(home, 'sofa.png');
    const cat = join(home, 'cat.png');
    writeFileSync(sofa, png(1));
    writeFileSync(cat, png(2));
    const base = ['chat', '--json', '--base-url', llm.baseUrl, '--model', 'scripted-model'];
    const run = await runCli(
      [
        ...base,
        '--tool-mode',
        'prompt',
        '--tools',
        'image_generate',
        '--attach',
        sofa,
        '--attach',
        cat,
        'Cat on sofa',
      ],
      env,
    );
    const result = jsonLines(run.stdout).find((event) => event.type === 'tool-result') as {
      status: string;
    };
    expect(result.status).toBe('ok');
    // Index 2 (1-based) is cat.png: the base goes first, the other attachment is a reference.
    expect(images.requests[0]?.path).toBe('/v1/images/edits');
    expect(images.requests[0]?.imageNames).toEqual(['cat.png', 'sofa.png']);

    const conversationId = String(jsonLines(run.stdout)[0]?.conversationId);
    const outOfRange = await runCli(
      [
        ...base,
        '--tool-mode',
        'prompt',
        '--tools',
        'image_generate',
        '--conversation',
        conversationId,
        '--attach',
        sofa,
        'again',
      ],
      env,
    );
    const refused = jsonLines(outOfRange.stdout).find((event) => event.type === 'tool-result') as {
      status: string;
      output: string;
    };
    // Only the newest message's attachments count: one image now, so index 3 is out of range.
    expect(refused.status).toBe('error');
    expect(refused.output).toMatch(/base_image_index 3.*1 image/);
    expect(images.requests).toHaveLength(1);
  }, 120_000);
});
