/**
 * The models service, the one place the host (`models.*`, `chat.send`) and the CLI (`aivory
 * models`, `chat`, `doctor`) decide about saved models, over the real SQLite store and the file
 * secret store: lookup, the first model becoming the default, a key that follows the model's
 * origin only (kept, dropped, kept on request, copied to the same origin only), removal with its
 * key, and which model a turn or a conversation resolves to.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../src/main/adapters/secrets/file-secret-store';
import type { SqliteStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import { openStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import { randomIds } from '../../../src/main/adapters/system';
import { ModelsService } from '../../../src/main/services/models-service';

describe('ModelsService', () => {
  let dir = '';
  let store: SqliteStore;
  let secrets: FileSecretStore;
  let models: ModelsService;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'aivory-models-service-'));
    store = openStore(join(dir, 'aivory.db'));
    secrets = new FileSecretStore(join(dir, 'secrets.json'));
    models = new ModelsService({ settings: store.settings, secrets, ids: randomIds });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const keyOf = async (id: string) => {
    const ref = models.require(id).apiKeyRef;
    return ref === null ? null : secrets.get(ref);
  };

  it('finds saved models; the first saved is the default; an unknown id is not-found', async () => {
    expect(models.find('model_nope')).toBeNull();
    expect(models.find(null)).toBeNull();
    expect(models.defaultModel()).toBeNull();
    const first = await models.save({ baseUrl: 'http://127.0.0.1:1/v1', model: 'a' });
    const second = await models.save({ baseUrl: 'http://127.0.0.1:2/v1', model: 'b' });
    expect(models.list().map((model) => model.id)).toEqual([first.id, second.id]);
    expect(models.find(second.id)?.model).toBe('b');
    expect(models.defaultModel()?.id).toBe(first.id);
    expect(first).toMatchObject({ label: 'a', toolMode: 'native', apiKeyRef: null });
    expect(() => models.require('model_nope')).toThrow('No saved model with id model_nope.');
    expect(() => models.require(undefined)).toThrow('No saved model with id (missing).');
    await models.save({ ...second, isDefault: true });
    expect(models.defaultModel()?.id).toBe(second.id);
  });

  it('a saved key stays on its origin: kept on the same one, dropped on another unless kept', async () => {
    const saved = await models.save({
      baseUrl: 'http://127.0.0.1:8001/v1',
      model: 'm',
      apiKey: 'sk-one',
    });
    expect(await keyOf(saved.id)).toBe('sk-one');
    // Same origin, another path: the key stays.
    await models.save({ id: saved.id, baseUrl: 'http://127.0.0.1:8001/v2', model: 'm' });
    expect(await keyOf(saved.id)).toBe('sk-one');
    // Another origin: dropped from the model and from the secret store.
    const ref = models.require(saved.id).apiKeyRef ?? '';
    await models.save({ id: saved.id, baseUrl: 'http://127.0.0.1:8002/v1', model: 'm' });
    expect(models.require(saved.id).apiKeyRef).toBeNull();
    expect(await secrets.get(ref)).toBeNull();
    // A new key, then a move that keeps it on request.
    await models.save({
      id: saved.id,
      baseUrl: 'http://127.0.0.1:8002/v1',
      model: 'm',
      apiKey: 'sk-two',
    });
    await models.save({
      id: saved.id,
      baseUrl: 'http://127.0.0.1:8003/v1',
      model: 'm',
      keepKey: true,
    });
    expect(await keyOf(saved.id)).toBe('sk-two');
    // null clears it.
    await models.save({
      id: saved.id,
      baseUrl: 'http://127.0.0.1:8003/v1',
      model: 'm',
      apiKey: null,
    });
    expect(await keyOf(saved.id)).toBeNull();
  });

  it('copies another model’s key to the same origin only; the connection key only to its own URL', async () => {
    const source = await models.save({
      label: 'Provider',
      baseUrl: 'http://127.0.0.1:8001/v1',
      model: 'big',
      apiKey: 'sk-provider',
    });
    const sibling = await models.save({
      baseUrl: 'http://127.0.0.1:8001/v1',
      model: 'small',
      keyFrom: source.id,
    });
    expect(await keyOf(sibling.id)).toBe('sk-provider');
    await expect(
      models.save({ baseUrl: 'http://127.0.0.1:9999/v1', model: 'x', keyFrom: source.id }),
    ).rejects.toThrow(
      'baseUrl: the key of "Provider" is only sent to http://127.0.0.1:8001; enter a key for http://127.0.0.1:9999.',
    );
    expect(models.list()).toHaveLength(2);
    expect(await models.keyFor(source.id, 'http://127.0.0.1:8001/v1/')).toBe('sk-provider');
    expect(await models.keyFor(source.id, 'http://127.0.0.1:9999/v1')).toBeNull();
  });

  it('removes a model with its key', async () => {
    const saved = await models.save({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: 'k' });
    const ref = saved.apiKeyRef ?? '';
    expect(await secrets.get(ref)).toBe('k');
    await models.remove(saved.id);
    expect(models.find(saved.id)).toBeNull();
    expect(await secrets.get(ref)).toBeNull();
    await expect(models.remove(saved.id)).rejects.toThrow(`No saved model with id ${saved.id}.`);
  });

  it('resolves a turn’s and a conversation’s model over the saved ones', async () => {
    const first = await models.save({
      baseUrl: 'http://127.0.0.1:1/v1',
      model: 'a',
      apiKey: 'ka',
    });
    const second = await models.save({ baseUrl: 'http://127.0.0.1:2/v1', model: 'b' });
    expect(await models.resolveTurn(undefined, {})).toMatchObject({ id: first.id, apiKey: 'ka' });
    expect(await models.resolveTurn(second.id, {})).toMatchObject({ id: second.id, model: 'b' });
    await expect(models.resolveTurn('model_nope', {})).rejects.toThrow('No saved model');
    expect(await models.resolveConversation(second.id, {})).toMatchObject({ id: second.id });
    expect(await models.resolveConversation('model_gone', {})).toMatchObject({ id: first.id });
    expect(await models.resolve({ baseUrl: 'http://127.0.0.1:3/v1', model: 'flag' })).toMatchObject(
      { id: null, model: 'flag', apiKey: null },
    );
  });
});
