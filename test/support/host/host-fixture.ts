/**
 * A real AppContext on a temp data directory with the API host over it, for handler tests: the
 * same store, secret store and chat service the CLI and `aivory serve` use.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InvokeMethod, InvokeRequest, InvokeResult } from '../../../src/shared/ipc-contract';
import type { ApiHost } from '../../../src/main/host/api-handlers';
import { createApiHost } from '../../../src/main/host/api-handlers';
import type { DiscoveryCandidate } from '../../../src/main/host/host-context';
import type { SenderDescriptor } from '../../../src/main/host/sender';
import type { AppContext } from '../../../src/main/composition/app-context';
import { openAppContext } from '../../../src/main/composition/app-context';

export const TRUSTED_ORIGIN = 'http://127.0.0.1:5217';

export const TRUSTED_SENDER: SenderDescriptor = {
  transport: 'websocket',
  origin: TRUSTED_ORIGIN,
  mainFrame: true,
  authenticated: true,
};

export interface HostFixture {
  app: AppContext;
  host: ApiHost;
  /** Calls a method as the trusted sender. */
  call<M extends InvokeMethod>(method: M, request?: InvokeRequest<M>): Promise<InvokeResult<M>>;
  /** Calls a method and returns its value, failing the test on an error result. */
  value<M extends InvokeMethod>(
    method: M,
    request?: InvokeRequest<M>,
  ): Promise<Extract<InvokeResult<M>, { ok: true }>['value']>;
  close(): Promise<void>;
}

/** Opens a fresh data directory; `env` adds AIVORY_* start-up variables. */
export function openHostFixture(
  options: { env?: Record<string, string>; discoveryCandidates?: DiscoveryCandidate[] } = {},
): HostFixture {
  const home = mkdtempSync(join(tmpdir(), 'aivory-host-'));
  const env = { AIVORY_HOME: home, AIVORY_LOCAL_SANDBOX: '0', ...options.env };
  const app = openAppContext({ env });
  const host = createApiHost(app, {
    env,
    policy: { allowedOrigins: [TRUSTED_ORIGIN] },
    ...(options.discoveryCandidates ? { discoveryCandidates: options.discoveryCandidates } : {}),
  });
  const call = async <M extends InvokeMethod>(
    method: M,
    request?: InvokeRequest<M>,
  ): Promise<InvokeResult<M>> =>
    (await host.dispatch(method, request, TRUSTED_SENDER)) as InvokeResult<M>;
  return {
    app,
    host,
    call,
    value: async (method, request) => {
      const result = await call(method, request);
      if (!result.ok)
        throw new Error(`${method} failed: ${result.error.code} ${result.error.message}`);
      return result.value;
    },
    close: async () => {
      await app.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
