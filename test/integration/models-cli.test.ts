/** `aivory models add --vision`: the real CLI marks a model that takes images, and lists it so. */
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

describe('aivory models add --vision', () => {
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
});
