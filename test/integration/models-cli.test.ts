/**
 * `aivory models`: the real CLI marks a model that takes images and lists it so; and `edit
 * --base-url` follows the app's key rule (the models service): a saved key does not follow the
 * model to another origin unless `--keep-key`.
 */
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

describe('aivory models', () => {
  let home: string;

  beforeEach(() => {
    home = makeDataDir();
  });

  it('saves vision on the model, and only on the one that asked for it', async () => {
    const add = (model: string, ...flags: string[]) =>
      runCli(
        ['models', 'add', '--base-url', 'http://127.0.0.1:9/v1', '--model', model, ...flags],
        cliEnv(home),
      );
    const withVision = await add('llava', '--vision');
    expect(withVision.code, withVision.stderr).toBe(0);
    expect((await add('text-only')).code).toBe(0);
    const list = await runCli(['models', 'list'], cliEnv(home));
    const lines = list.stdout.trim().split('\n');
    expect(lines.find((line) => line.includes('llava'))).toContain('native, vision');
    expect(lines.find((line) => line.includes('text-only'))).not.toContain('vision');
    const store = openStore(join(home, 'aivory.db'));
    try {
      expect(
        store.settings.listModels().map((model) => [model.model, model.vision === true]),
      ).toEqual([
        ['llava', true],
        ['text-only', false],
      ]);
    } finally {
      store.close();
    }
    const help = await runCli(['--help'], cliEnv(home));
    expect(help.stdout).toContain('[--vision]');
  });

  it('edit --base-url keeps the key on the same origin, drops it on another unless --keep-key', async () => {
    const env = cliEnv(home);
    const added = await runCli(
      [
        'models',
        'add',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--model',
        'm',
        '--api-key',
        'sk-abcdef123456',
      ],
      env,
    );
    const id = added.stdout.trim();
    const keyShown = async () =>
      /key: (\S+)/.exec((await runCli(['models', 'list'], env)).stdout)?.[1] ?? '';
    const shown = await keyShown();
    expect(shown).not.toBe('none');
    const edit = (...flags: string[]) => runCli(['models', 'edit', id, ...flags], env);
    expect((await edit('--base-url', 'http://127.0.0.1:9/v2')).code).toBe(0);
    expect(await keyShown()).toBe(shown);
    expect((await edit('--base-url', 'http://127.0.0.1:10/v1', '--keep-key')).code).toBe(0);
    expect(await keyShown()).toBe(shown);
    const moved = await edit('--base-url', 'http://127.0.0.1:11/v1');
    expect(moved.code).toBe(0);
    expect(moved.stderr).toContain('the saved key was for http://127.0.0.1:10; it was removed');
    expect(await keyShown()).toBe('none');
  });
});
