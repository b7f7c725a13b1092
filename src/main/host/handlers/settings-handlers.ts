/**
 * `settings.*`: the typed settings as the renderer may see them (key references replaced by a
 * mask), validated updates through the settings service, and keys into the secret store.
 */
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { maskSecret } from '../../policy/secret-mask';
import type { SecretStore } from '../../core/ports';
import type { SettingsService } from '../../services/settings-service';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';

type SettingsHandlers = Pick<ApiHandlers, 'settings.get' | 'settings.set' | 'settings.setKey'>;
type SettingsView = InvokeResponse<'settings.get'>;

/** The settings handlers over the host context. */
export function createSettingsHandlers(context: HostContext): SettingsHandlers {
  const { settings, secrets } = context.app;
  return {
    'settings.get': () => settingsView(settings, secrets),
    'settings.set': async (request) => {
      settings.update(request.key, request.values);
      await context.app.settingsChanged(request.key);
      return settingsView(settings, secrets);
    },
    'settings.setKey': async ({ key, apiKey }) => {
      const ref = `settings:${key}:api-key`;
      if (apiKey === null) {
        await secrets.delete(ref);
        settings.update(key, { apiKeyRef: null });
      } else {
        await secrets.set(ref, apiKey);
        settings.update(key, { apiKeyRef: ref });
      }
      await context.app.settingsChanged(key);
      return settingsView(settings, secrets);
    },
  };
}

/** Every settings group; each `apiKeyRef` becomes `apiKeyMasked`. */
export async function settingsView(
  settings: SettingsService,
  secrets: SecretStore,
): Promise<SettingsView> {
  const masked = async (ref: string | null): Promise<string | null> => {
    const value = ref ? await secrets.get(ref) : null;
    return value ? maskSecret(value) : null;
  };
  const { apiKeyRef: searchKey, ...search } = settings.get('search');
  const { apiKeyRef: sandboxKey, ...sandbox } = settings.get('sandbox');
  const { apiKeyRef: imagesKey, ...images } = settings.get('images');
  return {
    search: { ...search, apiKeyMasked: await masked(searchKey) },
    sandbox: { ...sandbox, apiKeyMasked: await masked(sandboxKey) },
    images: { ...images, apiKeyMasked: await masked(imagesKey) },
    chat: settings.get('chat'),
    web: settings.get('web'),
    mcp: settings.get('mcp'),
    ui: settings.get('ui'),
  };
}
