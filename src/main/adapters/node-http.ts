/**
 * `node:http` for modules on the start path, and `node:https` / `node:tls` loaded at the first
 * HTTPS request. An ESM `import … from 'node:http'` builds the module's ESM facade, which reads
 * every export, and the lazy `WebSocket` / `EventSource` getters among them load undici: about a
 * tenth of `aivory tools`' start-up for classes nobody here uses. `process.getBuiltinModule`
 * hands out the CommonJS exports as they are. (Type-only imports are erased and stay as they are.)
 */
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';

export const nodeHttp = process.getBuiltinModule('node:http');

/** `node:https`, loaded at first use: TLS is not needed to start. */
export function nodeHttps(): typeof Https {
  return process.getBuiltinModule('node:https');
}

/** `node:tls`, loaded at first use. */
export function nodeTls(): typeof Tls {
  return process.getBuiltinModule('node:tls');
}
