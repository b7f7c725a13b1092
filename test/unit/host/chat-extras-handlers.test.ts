import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiHost } from '../../../src/main/host/api-handlers';
import { createApiHost } from '../../../src/main/host/api-handlers';
import type { AppContext } from '../../../src/main/composition/app-context';
import { openAppContext } from '../../../src/main/composition/app-context';
import type { InvokeMethod, InvokeResponse } from '../../../src/shared/ipc-contract';
import { invokeContract } from '../../../src/shared/ipc-contract';
import { makeDataDir } from '../../support/host/data-files-fixture';
import { TRUSTED_ORIGIN, TRUSTED_SENDER } from '../../support/host/host-fixture';

/** Records what the desktop shell was asked to do. */
function fakeDesktop(openResult = '') {
  const calls: string[] = [];
  return {
    calls,
    shell: {
      openPath: (path: string) => {
        calls.push(`open ${path}`);
        return Promise.resolve(openResult);
      },
      showItemInFolder: (path: string) => {
        calls.push(`reveal ${path}`);
      },
    },
  };
}

describe('host: files.open / files.reveal and conversation tool switches', () => {
  let data: ReturnType<typeof makeDataDir>;
  let app: AppContext;
  let desktop: ReturnType<typeof fakeDesktop>;
  let host: ApiHost;
  const env = (): Record<string, string> => ({ AIVORY_HOME: data.home, AIVORY_LOCAL_SANDBOX: '0' });
  const call = (target: ApiHost, method: InvokeMethod, payload: unknown) =>
    target.dispatch(method, payload, TRUSTED_SENDER);

  beforeEach(() => {
    data = makeDataDir();
    app = openAppContext({ env: env() });
    desktop = fakeDesktop();
    host = createApiHost(app, {
      env: env(),
      policy: { allowedOrigins: [TRUSTED_ORIGIN] },
      desktop: desktop.shell,
    });
  });
  afterEach(async () => {
    await app.close();
    rmSync(data.home, { recursive: true, force: true });
    rmSync(data.outside, { recursive: true, force: true });
  });

  it('open and reveal hand the real path of an artifact or upload to the shell', async () => {
    const plot = join(data.home, 'artifacts', 'conv_1', 'plot.png');
    const csv = join(data.home, 'uploads', 'conv_1', 'data.csv');
    expect(await call(host, 'files.open', { path: plot })).toEqual({
      ok: true,
      value: { ok: true },
    });
    expect(await call(host, 'files.reveal', { path: csv })).toEqual({
      ok: true,
      value: { ok: true },
    });
    expect(desktop.calls).toEqual([`open ${plot}`, `reveal ${csv}`]);
  });

  it('refuses ../, symlinks out, absolute paths elsewhere and missing files; the shell is never called', async () => {
    const refused = [
      `${data.home}/artifacts/../secrets.json`,
      join(data.home, 'artifacts', 'conv_1', 'link-out.png'),
      join(data.home, 'uploads', 'conv_1', 'dir-out', 'elsewhere.txt'),
      join(data.outside, 'link-in.png'),
      '/etc/passwd',
      'artifacts/conv_1/plot.png',
      join(data.home, 'artifacts', 'conv_1', 'missing.png'),
    ];
    for (const method of ['files.open', 'files.reveal'] as const) {
      for (const path of refused) {
        expect(await call(host, method, { path }), `${method} ${path}`).toMatchObject({
          ok: false,
          error: { code: 'not-found' },
        });
      }
    }
    expect(desktop.calls).toEqual([]);
  });

  it('open refuses files that could run as a program or whose bytes disagree with their name; reveal still works', async () => {
    const dir = join(data.home, 'artifacts', 'conv_1');
    const traps: Record<string, string | Buffer> = {
      'run-me.bat': '@echo off\r\ncalc.exe\r\n',
      'run.sh': '#!/bin/sh\necho hi\n',
      'notes.desktop': '[Desktop Entry]\nExec=sh -c id\n',
      'tool-1.exe': Buffer.from('MZ\x90\x00'),
      noext: 'plain',
      'report.pdf.': '%PDF-1.7',
      'page.txt': '<!doctype html><script>alert(1)</script>',
      'script.txt': '#!/usr/bin/env python3\nprint(1)\n',
      'app.docx': Buffer.concat([
        Buffer.from([0x50, 0x4b, 0x03, 0x04]),
        Buffer.alloc(22),
        Buffer.from([20, 0, 0, 0]),
        Buffer.from('META-INF/MANIFEST.MF'),
      ]),
    };
    for (const [name, content] of Object.entries(traps)) writeFileSync(join(dir, name), content);
    const refused = [...Object.keys(traps), 'page.html', 'drawing.svg', 'fake.png'];
    for (const name of refused) {
      const answer = await call(host, 'files.open', { path: join(dir, name) });
      expect(answer, name).toMatchObject({
        ok: false,
        error: { code: 'invalid-input', message: expect.stringContaining('Show in folder') },
      });
    }
    expect(desktop.calls).toEqual([]);
    for (const name of refused)
      expect(await call(host, 'files.reveal', { path: join(dir, name) })).toMatchObject({
        ok: true,
      });
    writeFileSync(join(dir, 'summary.md'), '# Result\n\n| a | b |\n');
    writeFileSync(join(dir, 'report.pdf'), '%PDF-1.7\n');
    for (const name of ['summary.md', 'report.pdf'])
      expect(await call(host, 'files.open', { path: join(dir, name) }), name).toMatchObject({
        ok: true,
      });
    expect(desktop.calls.filter((entry) => entry.startsWith('open '))).toEqual([
      `open ${join(dir, 'summary.md')}`,
      `open ${join(dir, 'report.pdf')}`,
    ]);
  });

  it('malformed payloads are refused before any path is looked at', async () => {
    const malformed: unknown[] = [
      {},
      { path: '' },
      { path: 42 },
      { path: `${data.home}/artifacts/conv_1/plot.png\0` },
      { path: `/${'a'.repeat(5000)}` },
      { path: '/x', extra: true },
    ];
    for (const method of ['files.open', 'files.reveal'] as const) {
      for (const payload of malformed) {
        expect(await call(host, method, payload), JSON.stringify(payload)).toMatchObject({
          ok: false,
          error: { code: 'invalid-input' },
        });
      }
    }
    expect(desktop.calls).toEqual([]);
  });

  it('a shell that cannot open the file is an error; the browser host has no shell', async () => {
    const failing = fakeDesktop('No application knows this file type');
    const strict = createApiHost(app, {
      env: env(),
      policy: { allowedOrigins: [TRUSTED_ORIGIN] },
      desktop: failing.shell,
    });
    const plot = join(data.home, 'artifacts', 'conv_1', 'plot.png');
    expect(await call(strict, 'files.open', { path: plot })).toMatchObject({
      ok: false,
      error: { code: 'config', message: 'The system could not open this file.' },
    });
    const browser = createApiHost(app, {
      env: env(),
      policy: { allowedOrigins: [TRUSTED_ORIGIN] },
    });
    for (const method of ['files.open', 'files.reveal'] as const) {
      expect(await call(browser, method, { path: plot })).toMatchObject({
        ok: false,
        error: {
          code: 'config',
          message: expect.stringContaining('only available in the desktop app'),
        },
      });
    }
  });

  it('conversations.tools lists each tool with the layer that decides it', async () => {
    app.stores.conversations.createConversation({ id: 'conv_t', title: 'T', modelId: null });
    const listed = await call(host, 'conversations.tools', { id: 'conv_t' });
    expect(
      invokeContract['conversations.tools'].response.safeParse(listed.ok && listed.value).success,
    ).toBe(true);
    const rows = listed.ok ? (listed.value as InvokeResponse<'conversations.tools'>).tools : [];
    const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
    expect(byName.save_memory).toMatchObject({
      on: true,
      layer: 'model-default',
      defaultOn: true,
      available: true,
      reason: null,
    });
    expect(byName.python_execute).toMatchObject({ available: false, on: true });
    expect(byName.python_execute?.reason).toContain('请先配置沙盒');
    // A new chat: no conversation yet, the same list from the model's defaults.
    expect(await call(host, 'conversations.tools', {})).toMatchObject({ ok: true });
  });

  it('conversations.setTools switches, clears and resets; global and model layers show through', async () => {
    const model = {
      id: 'model_1',
      label: 'Local',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      toolMode: 'prompt' as const,
      contextWindow: 8192,
      defaultTools: ['save_memory'],
      apiKeyRef: null,
      isDefault: true,
    };
    app.stores.settings.saveModel(model);
    app.stores.conversations.createConversation({ id: 'conv_t', title: 'T', modelId: model.id });
    app.stores.settings.setToolAvailability('web_fetch', false);
    const rows = async (payload: unknown) => {
      const result = await call(host, 'conversations.setTools', payload);
      if (!result.ok) throw new Error(result.error.message);
      const value = result.value as { tools: { name: string; on: boolean; layer: string }[] };
      return Object.fromEntries(value.tools.map((row) => [row.name, row]));
    };
    const switched = await rows({ id: 'conv_t', toggles: { use_skill: true, save_memory: false } });
    expect(switched.use_skill).toMatchObject({ on: true, layer: 'conversation-on' });
    expect(switched.save_memory).toMatchObject({ on: false, layer: 'conversation-off' });
    expect(switched.web_fetch).toMatchObject({ on: false, layer: 'global-off' });
    expect(app.stores.conversations.getConversation('conv_t')?.toolToggles).toEqual({
      use_skill: true,
      save_memory: false,
    });
    const cleared = await rows({ id: 'conv_t', toggles: { save_memory: null } });
    expect(cleared.save_memory).toMatchObject({ on: true, layer: 'model-default' });
    expect(cleared.use_skill).toMatchObject({ layer: 'conversation-on' });
    const reset = await rows({ id: 'conv_t', reset: true });
    expect(reset.use_skill).toMatchObject({ on: false, layer: 'not-model-default' });
    expect(app.stores.conversations.getConversation('conv_t')?.toolToggles).toEqual({});
  });

  it('conversations.setTools refuses unknown conversations and malformed switches', async () => {
    app.stores.conversations.createConversation({ id: 'conv_t', title: 'T', modelId: null });
    expect(
      await call(host, 'conversations.setTools', { id: 'conv_missing', toggles: {} }),
    ).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await call(host, 'conversations.tools', { id: 'conv_missing' })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    const malformed: unknown[] = [
      { id: 'conv_t', toggles: { 'bad name': true } },
      { id: 'conv_t', toggles: { '../x': true } },
      { id: 'conv_t', toggles: { web_fetch: 'yes' } },
      {
        id: 'conv_t',
        toggles: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`t${i}`, true])),
      },
      { id: 'conv_t', reset: 'true' },
      { toggles: { web_fetch: true } },
      { id: 'conv_t', other: 1 },
    ];
    for (const payload of malformed) {
      expect(
        await call(host, 'conversations.setTools', payload),
        JSON.stringify(payload).slice(0, 80),
      ).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
    }
    expect(app.stores.conversations.getConversation('conv_t')?.toolToggles).toEqual({});
  });
});
