/**
 * The layer fence (eslint-layers.js → eslint.config.js): a deliberately bad file per layer is
 * refused and a good one passes, dynamic import() included; and the "Layers" table of
 * ARCHITECTURE.md shows exactly the folders, imports and packages the fence enforces.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { BRIDGE_CALLERS, LAYERS, tableCells } from '../../../eslint-layers.js';

const root = join(import.meta.dirname, '..', '..', '..');
const FENCE_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

// The snippets are not part of any tsconfig program: lint them without type information.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    {
      files: ['**/*.ts', '**/*.tsx'],
      ...tseslint.configs.disableTypeChecked,
    },
  ],
});

/** The fence's messages for `code` as if it were the file at `filePath`. */
async function fenceErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  const messages = result?.messages ?? [];
  const fatal = messages.filter((message) => message.fatal);
  expect(fatal.map((message) => message.message)).toEqual([]);
  return messages
    .filter((message) => message.ruleId !== null && FENCE_RULES.has(message.ruleId))
    .map((message) => `${message.ruleId}: ${message.message}`);
}

const BAD: { name: string; file: string; code: string }[] = [
  {
    name: 'core imports node:fs',
    file: 'src/main/core/orchestrator/bad.ts',
    code: "import { readFileSync } from 'node:fs';\nreadFileSync('x');\n",
  },
  {
    name: 'core imports fs without the node: prefix',
    file: 'src/main/core/bad.ts',
    code: "import fs from 'fs';\nfs.readFileSync('x');\n",
  },
  {
    name: 'core dynamically imports node:fs',
    file: 'src/main/core/orchestrator/bad.ts',
    code: "export const load = () => import('node:fs');\n",
  },
  {
    name: 'core imports a computed module',
    file: 'src/main/core/bad.ts',
    code: 'export const load = (name: string) => import(name);\n',
  },
  {
    name: 'core imports node:dns',
    file: 'src/main/core/bad.ts',
    code: "export { lookup } from 'node:dns';\n",
  },
  {
    name: 'core imports node:os',
    file: 'src/main/core/bad.ts',
    code: "import { tmpdir } from 'node:os';\ntmpdir();\n",
  },
  {
    name: 'core imports node:worker_threads',
    file: 'src/main/core/bad.ts',
    code: "import { Worker } from 'node:worker_threads';\nnew Worker('x');\n",
  },
  {
    name: 'core imports ws',
    file: 'src/main/core/bad.ts',
    code: "import { WebSocket } from 'ws';\nnew WebSocket('x');\n",
  },
  {
    name: 'core imports zod',
    file: 'src/main/core/bad.ts',
    code: "import { z } from 'zod';\nz.string();\n",
  },
  {
    name: 'core imports an adapter',
    file: 'src/main/core/orchestrator/bad.ts',
    code: "import { systemClock } from '../../adapters/system';\nsystemClock.now();\n",
  },
  {
    name: 'core imports a service',
    file: 'src/main/core/bad.ts',
    code: "import type { ChatService } from '../services/chat-service';\nexport type X = ChatService;\n",
  },
  {
    name: 'policy imports node:fs',
    file: 'src/main/policy/bad.ts',
    code: "import { readFileSync } from 'node:fs';\nreadFileSync('x');\n",
  },
  {
    name: 'policy imports node:net outside ip-address.ts',
    file: 'src/main/policy/url-policy.ts',
    code: "import { isIP } from 'node:net';\nisIP('x');\n",
  },
  {
    name: 'policy imports an adapter',
    file: 'src/main/policy/bad.ts',
    code: "import { systemClock } from '../adapters/system';\nsystemClock.now();\n",
  },
  {
    name: 'policy imports a service',
    file: 'src/main/policy/bad.ts',
    code: "export const load = () => import('../services/search-config');\n",
  },
  {
    name: 'policy imports a computed module',
    file: 'src/main/policy/bad.ts',
    code: 'export const load = (name: string) => import(name);\n',
  },
  {
    name: 'tools import better-sqlite3',
    file: 'src/main/tools/bad.ts',
    code: "import Database from 'better-sqlite3';\nnew Database(':memory:');\n",
  },
  {
    name: 'tools import node:path',
    file: 'src/main/tools/bad.ts',
    code: "import { join } from 'node:path';\njoin('a');\n",
  },
  {
    name: 'tools import linkedom outside web-html-dom.ts',
    file: 'src/main/tools/web-fetch.ts',
    code: "import { parseHTML } from 'linkedom';\nparseHTML('');\n",
  },
  {
    name: 'tools import an adapter',
    file: 'src/main/tools/search-backends/bad.ts',
    code: "import { createEndpointFetcher } from '../../adapters/fetch/endpoint-fetcher';\ncreateEndpointFetcher('http://x');\n",
  },
  {
    name: 'tools import a service',
    file: 'src/main/tools/bad.ts',
    code: "export const load = () => import('../services/chat-service');\n",
  },
  {
    name: 'tools import the composition root',
    file: 'src/main/tools/bad.ts',
    code: "export const load = () => import('../composition/app-context');\n",
  },
  {
    name: 'adapters import a service',
    file: 'src/main/adapters/bad.ts',
    code: "import { ChatService } from '../services/chat-service';\nexport { ChatService };\n",
  },
  {
    name: 'adapters import the composition root',
    file: 'src/main/adapters/bad.ts',
    code: "import { openAppContext } from '../composition/app-context';\nopenAppContext();\n",
  },
  {
    name: 'adapters import a tool',
    file: 'src/main/adapters/artifacts/bad.ts',
    code: "import type { ArtifactSink } from '../../tools/python-execute';\nexport type X = ArtifactSink;\n",
  },
  {
    name: 'the sqlite adapter imports openai',
    file: 'src/main/adapters/sqlite/bad.ts',
    code: "import OpenAI from 'openai';\nnew OpenAI();\n",
  },
  {
    name: 'adapters import the MCP SDK outside adapters/mcp',
    file: 'src/main/adapters/fetch/bad.ts',
    code: "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nexport { Client };\n",
  },
  {
    name: 'services import an adapter',
    file: 'src/main/services/bad.ts',
    code: "import { openStore } from '../adapters/sqlite/sqlite-store';\nexport { openStore };\n",
  },
  {
    name: 'services import the machine memory adapter (handed in by the composition root)',
    file: 'src/main/services/settings-service.ts',
    code: "import { machineMemoryMiB } from '../adapters/machine-memory';\nexport { machineMemoryMiB };\n",
  },
  {
    name: 'services import an adapter from a subfolder',
    file: 'src/main/services/mcp/bad.ts',
    code: "import { FileSecretStore } from '../../adapters/secrets/file-secret-store';\nexport { FileSecretStore };\n",
  },
  {
    name: 'services import the sandbox client (a port now)',
    file: 'src/main/services/sandbox-manager.ts',
    code: "import { SandboxClient } from '../adapters/sandbox-client/sandbox-client';\nexport { SandboxClient };\n",
  },
  {
    name: 'services import an adapter lazily',
    file: 'src/main/services/bad.ts',
    code: "export const load = () => import('../adapters/lazy-clients');\n",
  },
  {
    name: 'services import the composition root',
    file: 'src/main/services/bad.ts',
    code: "import type { AppContext } from '../composition/app-context';\nexport type X = AppContext;\n",
  },
  {
    name: 'composition imports the host',
    file: 'src/main/composition/bad.ts',
    code: "import { createApiHost } from '../host/api-handlers';\nexport { createApiHost };\n",
  },
  {
    name: 'composition imports node:child_process',
    file: 'src/main/composition/bad.ts',
    code: "import { spawn } from 'node:child_process';\nspawn('x');\n",
  },
  {
    name: 'services import the host',
    file: 'src/main/services/bad.ts',
    code: "import type { HostContext } from '../host/host-context';\nexport type X = HostContext;\n",
  },
  {
    name: 'services import child_process',
    file: 'src/main/services/bad.ts',
    code: "import { spawn } from 'node:child_process';\nspawn('x');\n",
  },
  {
    name: 'services import the sandbox package outside sandbox-manager.ts',
    file: 'src/main/services/bad.ts',
    code: "export const load = () => import('@aivory/sandbox');\n",
  },
  {
    name: 'host imports the orchestrator',
    file: 'src/main/host/bad.ts',
    code: "import { runTurn } from '../core/orchestrator/run-turn';\nexport { runTurn };\n",
  },
  {
    name: 'host imports the sqlite adapter',
    file: 'src/main/host/handlers/bad.ts',
    code: "import { openStore } from '../../adapters/sqlite/sqlite-store';\nexport { openStore };\n",
  },
  {
    name: 'host imports ws outside server/',
    file: 'src/main/host/bad.ts',
    code: "import { WebSocketServer } from 'ws';\nexport { WebSocketServer };\n",
  },
  {
    name: 'host imports electron',
    file: 'src/main/host/bad.ts',
    code: "import { app } from 'electron';\napp.quit();\n",
  },
  {
    name: 'cli imports electron',
    file: 'src/main/cli/bad.ts',
    code: "import { app } from 'electron';\napp.quit();\n",
  },
  {
    name: 'cli imports the shell',
    file: 'src/main/cli/bad.ts',
    code: "export const load = () => import('../electron/window');\n",
  },
  {
    name: 'electron imported outside the shell files',
    file: 'src/main/electron/security.ts',
    code: "import { session } from 'electron';\nexport { session };\n",
  },
  {
    name: 'the shell imports the orchestrator',
    file: 'src/main/electron/index.ts',
    code: "import { runTurn } from '../core/orchestrator/run-turn';\nexport { runTurn };\n",
  },
  {
    name: 'preload imports node:path',
    file: 'src/preload/index.ts',
    code: "import { join } from 'node:path';\njoin('a');\n",
  },
  {
    name: 'renderer imports node:path',
    file: 'src/renderer/bad.ts',
    code: "import { join } from 'node:path';\njoin('a');\n",
  },
  {
    name: 'renderer imports the main process',
    file: 'src/renderer/features/bad.ts',
    code: "import type { Tool } from '../../main/core/ports';\nexport type X = Tool;\n",
  },
  {
    name: 'a renderer component calls bridge.invoke',
    file: 'src/renderer/features/settings/bad.tsx',
    code: "import type { AivoryBridge } from '../../bridge/bridge';\nexport const list = (bridge: AivoryBridge) => bridge.invoke('models.list');\n",
  },
  {
    name: 'a renderer component calls invoke optionally, on the store',
    file: 'src/renderer/features/chat/bad.tsx',
    code: "import { appStore } from '../../state/store';\nexport const go = () => appStore.getState().bridge?.invoke('app.status');\n",
  },
  {
    name: 'a renderer slice takes invoke out of the bridge',
    file: 'src/renderer/state/bad.ts',
    code: "import type { AivoryBridge } from '../bridge/bridge';\nexport const go = ({ invoke }: AivoryBridge) => invoke('app.status');\n",
  },
  {
    name: 'the MCP settings call bridge.invoke (no longer an exception)',
    file: 'src/renderer/features/mcp/bad.tsx',
    code: "import type { AivoryBridge } from '../../bridge/bridge';\nexport const list = (bridge: AivoryBridge) => bridge.invoke('mcp.list');\n",
  },
  {
    name: "the composer's MCP picker calls bridge.invoke",
    file: 'src/renderer/features/composer/mcp-picker.tsx',
    code: "import type { AivoryBridge } from '../../bridge/bridge';\nexport const list = (bridge: AivoryBridge) => bridge.invoke('mcp.list');\n",
  },
  {
    name: 'a narrowed renderer file calls bridge.invoke',
    file: 'src/renderer/components/markdown-pipeline.ts',
    code: "import type { AivoryBridge } from '../bridge/bridge';\nexport const go = (bridge: AivoryBridge) => bridge.invoke('app.status');\n",
  },
  {
    name: 'renderer imports a computed module',
    file: 'src/renderer/bad.ts',
    code: 'export const load = (name: string) => import(name);\n',
  },
  {
    name: 'shared imports openai',
    file: 'src/shared/bad.ts',
    code: "import OpenAI from 'openai';\nnew OpenAI();\n",
  },
  {
    name: 'shared imports node:path',
    file: 'src/shared/ipc/bad.ts',
    code: "import { join } from 'node:path';\njoin('a');\n",
  },
  {
    name: 'shared imports the core',
    file: 'src/shared/bad.ts',
    code: "import type { Tool } from '../main/core/ports';\nexport type X = Tool;\n",
  },
  {
    name: 'the sandbox imports the app',
    file: 'sandbox/src/bad.ts',
    code: "import type { Tool } from '../../src/main/core/ports';\nexport type X = Tool;\n",
  },
  {
    name: 'the sandbox imports openai',
    file: 'sandbox/src/http/bad.ts',
    code: "import OpenAI from 'openai';\nnew OpenAI();\n",
  },
];

const GOOD: { name: string; file: string; code: string }[] = [
  {
    name: 'shared: zod and shared',
    file: 'src/shared/ipc/good.ts',
    code: "import { z } from 'zod';\nimport type { Message } from '../dto';\nexport const schema = z.string();\nexport type X = Message;\n",
  },
  {
    name: 'core: ports and shared',
    file: 'src/main/core/orchestrator/good.ts',
    code: "import type { Tool } from '../ports';\nimport type { TurnEvent } from '../../../shared/turn-events';\nexport type X = Tool | TurnEvent;\n",
  },
  {
    name: 'policy: shared, core, itself, node:net in ip-address.ts',
    file: 'src/main/policy/ip-address.ts',
    code: "import { isIPv4 } from 'node:net';\nimport type { HostResolver } from '../core/ports';\nimport { checkHttpUrl } from '../../shared/http-url';\nimport { redactText } from './redact';\nexport type X = HostResolver;\nexport { isIPv4, checkHttpUrl, redactText };\n",
  },
  {
    name: 'tools: ajv, core, shared',
    file: 'src/main/tools/good.ts',
    code: "import Ajv from 'ajv';\nimport type { Tool } from '../core/ports';\nimport { AivoryError } from '../../shared/errors';\nexport const ajv = new Ajv();\nexport type X = Tool;\nexport { AivoryError };\n",
  },
  {
    name: 'tools: linkedom in web-html-dom.ts, a lazy tool module',
    file: 'src/main/tools/web-html-dom.ts',
    code: "import { parseHTML } from 'linkedom';\nexport const load = () => import('./web-html-extract');\nexport { parseHTML };\n",
  },
  {
    name: 'adapters: better-sqlite3 in sqlite/, ports, node:*',
    file: 'src/main/adapters/sqlite/good.ts',
    code: "import Database from 'better-sqlite3';\nimport { join } from 'node:path';\nimport type { Clock } from '../../core/ports';\nexport const open = (clock: Clock) => new Database(join('a', String(clock.now())));\n",
  },
  {
    name: 'adapters: lazy SDK modules',
    file: 'src/main/adapters/lazy-clients.ts',
    code: "export const load = () => import('./openai/openai-llm-client');\nexport const worker = (url: string) => import(url);\n",
  },
  {
    name: 'services: ports, policy, tools, allowed built-ins',
    file: 'src/main/services/good.ts',
    code: "import { join } from 'node:path';\nimport type { SecretStore } from '../core/ports';\nimport { maskSecret } from '../policy/secret-mask';\nimport { createWebFetchTool } from '../tools/web-fetch';\nexport type X = SecretStore;\nexport { join, maskSecret, createWebFetchTool };\n",
  },
  {
    name: 'composition: adapters, services, tools, policy, node:fs',
    file: 'src/main/composition/good.ts',
    code: "import { statSync } from 'node:fs';\nimport { openStore } from '../adapters/sqlite/sqlite-store';\nimport { ChatService } from '../services/chat-service';\nimport { createWebFetchTool } from '../tools/web-fetch';\nimport { checkUrl } from '../policy/url-policy';\nexport { statSync, openStore, ChatService, createWebFetchTool, checkUrl };\n",
  },
  {
    name: 'services: the sandbox package in sandbox-manager.ts',
    file: 'src/main/services/sandbox-manager.ts',
    code: "export const load = () => import('@aivory/sandbox');\n",
  },
  {
    name: 'host: ws in server/, services, ports',
    file: 'src/main/host/server/good.ts',
    code: "import { WebSocketServer } from 'ws';\nimport type { Logger } from '../../core/ports';\nimport type { AppContext } from '../../composition/app-context';\nimport { maskSecret } from '../../policy/secret-mask';\nexport type X = Logger | AppContext;\nexport { WebSocketServer, maskSecret };\n",
  },
  {
    name: 'cli: lazy commands and services',
    file: 'src/main/cli/good.ts',
    code: "import { spawn } from 'node:child_process';\nexport const load = () => import('../composition/app-context');\nexport const command = () => import('./chat-command');\nexport { spawn };\n",
  },
  {
    name: 'electron: the shell imports electron and the host',
    file: 'src/main/electron/index.ts',
    code: "import { app } from 'electron';\nimport { createApiHost } from '../host/api-handlers';\nexport { app, createApiHost };\n",
  },
  {
    name: 'preload: electron and shared',
    file: 'src/preload/index.ts',
    code: "import { contextBridge } from 'electron';\nimport type { TurnEvent } from '../shared/turn-events';\nexport type X = TurnEvent;\nexport { contextBridge };\n",
  },
  {
    name: 'renderer: react and shared',
    file: 'src/renderer/features/good.ts',
    code: "import { useState } from 'react';\nimport type { TurnEvent } from '../../shared/turn-events';\nexport type X = TurnEvent;\nexport { useState };\n",
  },
  {
    name: 'renderer: a data module calls bridge.invoke',
    file: 'src/renderer/data/good.ts',
    code: "import type { AivoryBridge } from '../bridge/bridge';\nexport const list = (bridge: AivoryBridge) => bridge.invoke('models.list');\n",
  },
  {
    name: 'sandbox: dockerode and node:*',
    file: 'sandbox/src/good.ts',
    code: "import Docker from 'dockerode';\nimport { join } from 'node:path';\nexport { Docker, join };\n",
  },
];

describe('the layer fence', () => {
  it.each(BAD)('refuses: $name', async ({ file, code }) => {
    expect(await fenceErrors(file, code)).not.toEqual([]);
  });

  it.each(GOOD)('lets through: $name', async ({ file, code }) => {
    expect(await fenceErrors(file, code)).toEqual([]);
  });

  it('lets only the bridge and the data modules call bridge.invoke in the renderer', () => {
    expect(BRIDGE_CALLERS).toEqual(['src/renderer/bridge/**', 'src/renderer/data/**']);
  });

  it('covers every layer with a bad and a good file', () => {
    for (const layer of LAYERS) {
      const inLayer = (entry: { file: string }) => entry.file.startsWith(`${layer.folder}/`);
      expect(BAD.some(inLayer), layer.folder).toBe(true);
      expect(GOOD.some(inLayer), layer.folder).toBe(true);
    }
  });
});

describe('ARCHITECTURE.md "Layers"', () => {
  /** The table rows of the Layers section, as trimmed cells. */
  function tableRows(): string[][] {
    const text = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
    const section = text.split(/^## /m).find((part) => part.startsWith('Layers'));
    expect(section).toBeDefined();
    return (section ?? '')
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .slice(2) // header and separator
      .map((line) =>
        line
          .slice(1, -1)
          .split('|')
          .map((cell) => cell.trim()),
      );
  }

  it('lists exactly the layers of eslint-layers.js, with their imports and packages', () => {
    const rows = tableRows();
    const documented = rows.map(([folder, , mayImport, packages]) => ({
      folder,
      mayImport,
      packages,
    }));
    expect(documented).toEqual(LAYERS.map((layer) => tableCells(layer)));
  });
});
