/**
 * `node:http`, `node:https` and `node:tls`, each loaded at its first use: `aivory tools` with the
 * sandbox off needs none of them (loading `node:http` cost its start a few milliseconds). An ESM `import … from 'node:http'` builds the module's ESM facade, which reads
 * every export, and the lazy `WebSocket` / `EventSource` getters among them load undici: about a
 * tenth of `aivory tools`' start-up for classes nobody here uses. `process.getBuiltinModule`
 * hands out the CommonJS exports as they are. (Type-only imports are erased and stay as they are.)
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';

/** `node:http`, loaded at first use. */
export function nodeHttp(): typeof Http {
  return process.getBuiltinModule('node:http');
}

/** `node:https`, loaded at first use: TLS is not needed to start. */
export function nodeHttps(): typeof Https {
  return process.getBuiltinModule('node:https');
}

/** `node:tls`, loaded at first use. */
export function nodeTls(): typeof Tls {
  return process.getBuiltinModule('node:tls');
}
