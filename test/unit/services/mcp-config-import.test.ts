/**
 * The import parser on its own: the two syntaxes, JSONC, variables and inputs, names cleaned,
 * every left-out entry with a reason, bounded input and one clear line for broken JSON.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ENTRIES,
  planMcpImport,
} from '../../../src/main/services/mcp/mcp-config-import';
import type { McpImportOptions } from '../../../src/main/services/mcp/mcp-config-import';
import { exportMcpConfig } from '../../../src/main/services/mcp/mcp-config-export';
import type { McpService } from '../../../src/shared/mcp';

const options: McpImportOptions = {
  existingNames: ['taken'],
  env: { HOME: '/home/u', TOKEN: 'from-the-environment-123' },
  allowLocalCommands: true,
};

describe('planMcpImport', () => {
  it('plans stdio and HTTP entries of an mcpServers config, values masked', () => {
    const plan = planMcpImport(
      JSON.stringify({
        mcpServers: {
          files: { command: 'npx', args: ['-y', 'server', 3], env: { KEY: 'abcdefghijklmnop' } },
          web: {
            url: 'https://mcp.example.com/mcp',
            headers: { Authorization: 'Bearer ${TOKEN}' },
          },
          legacy: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        },
      }),
      options,
    );
    expect(plan.shape).toBe('mcpServers');
    expect(plan.skipped).toEqual([]);
    expect(plan.entries.map((entry) => [entry.name, entry.transport])).toEqual([
      ['files', 'stdio'],
      ['web', 'streamable-http'],
      ['legacy', 'sse'],
    ]);
    expect(plan.entries[0]).toMatchObject({ command: 'npx', args: ['-y', 'server', '3'] });
    expect(plan.entries[0]?.env[0]).toMatchObject({
      name: 'KEY',
      shown: 'abc…mnop',
      secret: true,
      from: 'the file',
    });
    expect(plan.entries[1]?.headers[0]).toMatchObject({
      value: 'Bearer from-the-environment-123',
      from: 'environment TOKEN',
    });
    expect(plan.entries[1]?.headers[0]?.shown).not.toContain('environment-123');
  });

  it('reads VS Code JSONC with inputs, and says why each entry is left out', () => {
    const text = `{
      // comment
      "inputs": [{ "type": "promptString", "id": "key", "description": "The key", "password": true }],
      "servers": {
        "a": { "type": "http", "url": "http://localhost:1/mcp", "headers": { "X-Key": "\${input:key}" } },
        "b": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/x.js"] },
        "c": { "type": "stdio", "command": "node", "env": { "K": "\${input:nope}" } },
        "taken": { "command": "node" },
        "d": { "type": "stdio", "command": "node", "env": { "K": "\${env:UNSET_VAR}" } },
        "e": "not an object",
        "f": { "url": "http://user:pw@localhost/mcp" },
        "\\u0007": { "command": "x" },
      },
    }`;
    const first = planMcpImport(text, options);
    expect(first.shape).toBe('vscode');
    expect(first.inputs).toEqual([
      { id: 'key', description: 'The key', password: true, default: null, options: null },
    ]);
    expect(first.entries[0]).toMatchObject({ name: 'a', missingInputs: ['key'] });
    expect(first.entries[0]?.headers[0]?.shown).toBe('${input:key}');
    const reasons = Object.fromEntries(first.skipped.map((skip) => [skip.name, skip.reason]));
    expect(reasons).toEqual({
      b: 'argument 1 uses ${workspaceFolder}, a variable this app cannot fill in',
      c: 'env K uses ${input:nope}, which the file\'s "inputs" do not declare',
      taken: 'a service named "taken" exists already',
      d: 'env K uses ${env:UNSET_VAR}, but UNSET_VAR is not set in the environment',
      e: 'the entry is not an object',
      f: 'Put credentials in a request header (e.g. Authorization: Bearer …), not in the URL',
      '\u0007': 'the name has no usable characters',
    });
    const answered = planMcpImport(text, { ...options, inputs: { key: 'the-answer-0123456' } });
    expect(answered.entries[0]).toMatchObject({ missingInputs: [] });
    expect(answered.entries[0]?.headers[0]).toMatchObject({
      value: 'the-answer-0123456',
      shown: 'the…3456',
    });
  });

  it('shows values that are not secrets in clear, hidden characters written out', () => {
    const text = JSON.stringify({
      inputs: [
        { id: 'pw', description: 'pw', password: true },
        { id: 'dir', description: 'dir' },
      ],
      servers: {
        memory: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-memory'],
          env: {
            MEMORY_FILE_PATH: '${input:dir}/memory.json',
            PLAIN_LOOKING: 'x${input:pw}',
            FROM_SHELL: '${env:TOKEN}',
            HOMEDIR: '${env:HOME}',
            ODD: 'a\u202eb\u001bc',
          },
        },
      },
    });
    const plan = planMcpImport(text, {
      ...options,
      env: { ...options.env, TOKEN: 'from-the-environment-123' },
      inputs: { pw: 'hunter2-hunter2', dir: '/data' },
    });
    const shown = Object.fromEntries(
      (plan.entries[0]?.env ?? []).map((value) => [value.name, [value.shown, value.secret]]),
    );
    expect(shown).toEqual({
      MEMORY_FILE_PATH: ['/data/memory.json', false],
      // A password input is a secret whatever the variable is called.
      PLAIN_LOOKING: ['xhu…ter2', true],
      // ${env:TOKEN}: named like a secret.
      FROM_SHELL: ['fro…-123', true],
      HOMEDIR: ['/home/u', false],
      ODD: ['a\\u{202e}b\\u{001b}c', false],
    });
  });

  it('calls out loader variables, shown in clear, allowed only per service', () => {
    const payload = '--import=data:text/javascript,sk-abcdefghijklmnop';
    const text = JSON.stringify({
      mcpServers: {
        memory: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-memory'],
          env: { NODE_OPTIONS: payload, LD_PRELOAD: '/tmp/x.so', DEBUG: '1' },
        },
        other: { command: 'npx', env: { NODE_OPTIONS: payload } },
      },
    });
    const refused = planMcpImport(text, options);
    expect(refused.entries[0]?.env).toEqual([
      expect.objectContaining({
        name: 'NODE_OPTIONS',
        // Code the server would run is never masked, even when part of it looks like a key.
        shown: payload,
        secret: false,
        loader: 'Node.js loads and runs the modules it names (--require, --import)',
        allowed: false,
      }),
      expect.objectContaining({ name: 'LD_PRELOAD', allowed: false }),
      expect.objectContaining({ name: 'DEBUG', loader: null, allowed: false }),
    ]);
    const allowed = planMcpImport(text, {
      ...options,
      allowLoaderEnv: { memory: ['node_options'] },
    });
    expect(allowed.entries[0]?.env.map((value) => [value.name, value.allowed])).toEqual([
      ['NODE_OPTIONS', true],
      ['LD_PRELOAD', false],
      ['DEBUG', false],
    ]);
    // Allowed for "memory" only, not for another server with the same variable.
    expect(allowed.entries[1]?.env[0]).toMatchObject({ name: 'NODE_OPTIONS', allowed: false });
    // An allowance that names nothing planned is refused, whichever door asked (CLI, dialog).
    expect(() =>
      planMcpImport(text, { ...options, allowLoaderEnv: { nope: ['NODE_OPTIONS'] } }),
    ).toThrow('the plan has no service "nope"');
    expect(() =>
      planMcpImport(text, { ...options, allowLoaderEnv: { memory: ['PYTHONPATH'] } }),
    ).toThrow('"memory" sets no loader variable PYTHONPATH');
  });

  it('cleans names and refuses duplicates after cleaning', () => {
    const plan = planMcpImport(
      JSON.stringify({
        mcpServers: {
          ' my\u202eserver ': { command: 'a' },
          'my server': { command: 'b' },
          ['x'.repeat(100)]: { command: 'c' },
        },
      }),
      options,
    );
    expect(plan.entries.map((entry) => entry.name)).toEqual(['my server', 'x'.repeat(64)]);
    expect(plan.skipped).toEqual([
      { name: 'my server', reason: 'the file names "my server" more than once' },
    ]);
  });

  it('skips command servers when local commands are off', () => {
    const plan = planMcpImport(JSON.stringify({ mcpServers: { a: { command: 'node' } } }), {
      ...options,
      allowLocalCommands: false,
    });
    expect(plan.entries).toEqual([]);
    expect(plan.skipped[0]?.reason).toContain('local command servers are off');
  });

  it('is bounded: size, entries', () => {
    expect(() => planMcpImport(' '.repeat(MAX_IMPORT_BYTES + 1), options)).toThrow(/over 512 KiB/);
    const many = Object.fromEntries(
      Array.from({ length: MAX_IMPORT_ENTRIES + 5 }, (_, index) => [`s${index}`, { command: 'x' }]),
    );
    const plan = planMcpImport(JSON.stringify({ mcpServers: many }), options);
    expect(plan.entries).toHaveLength(MAX_IMPORT_ENTRIES);
    expect(plan.skipped).toEqual([
      {
        name: '5 more',
        reason: `an import takes at most ${MAX_IMPORT_ENTRIES} services; split the file`,
      },
    ]);
  });

  it('says where broken JSON broke, in one line', () => {
    expect(() => planMcpImport('{\n  "mcpServers": {\n    "a": 1,,\n', options)).toThrow(
      /^The config is not valid JSON: property name expected at line 3, column 12\.$/,
    );
    expect(() => planMcpImport('[]', options)).toThrow(/^Not an MCP config/);
    expect(() => planMcpImport('', options)).toThrow(/not valid JSON/);
  });
});

describe('exportMcpConfig', () => {
  it('keeps names, drops secret values', () => {
    const base = {
      icon: '🔌',
      description: 'd',
      enabled: true,
      timeoutMs: 1,
      maxTimeoutMs: 1,
      testState: 'untested',
      testMessage: null,
      testedAt: null,
      syncedAt: null,
      stale: false,
      oauth: null,
      createdAt: 0,
      updatedAt: 0,
    } as const;
    const services: McpService[] = [
      {
        ...base,
        id: 'a',
        name: 'a',
        transport: 'stdio',
        url: null,
        command: 'node',
        args: ['x'],
        env: [{ name: 'K', secretRef: 'r' }],
        headers: [],
      },
      {
        ...base,
        id: 'b',
        name: 'b',
        transport: 'sse',
        url: 'http://h/sse',
        command: null,
        args: [],
        env: [],
        headers: [{ name: 'H', secretRef: 'r2' }],
      },
    ];
    const { config, omitted } = exportMcpConfig(services);
    expect(config).toEqual({
      mcpServers: {
        a: { command: 'node', args: ['x'], env: { K: '<secret: not exported>' } },
        b: { type: 'sse', url: 'http://h/sse', headers: { H: '<secret: not exported>' } },
      },
    });
    expect(omitted).toEqual(['a: K', 'b: H']);
    // What export writes, import reads back.
    const plan = planMcpImport(JSON.stringify(config), { ...options, existingNames: [] });
    expect(plan.entries.map((entry) => entry.name)).toEqual(['a', 'b']);
  });

  it('says a secret cannot be part of the server address, instead of "invalid URL"', () => {
    const plan = planMcpImport(
      JSON.stringify({
        inputs: [{ id: 'tenant', description: 'tenant key', password: true }],
        servers: {
          hosted: { type: 'http', url: 'https://${input:tenant}.mcp.example.com/mcp' },
          pathed: { type: 'http', url: 'https://mcp.example.com/${input:tenant}/mcp' },
        },
      }),
      { ...options, inputs: { tenant: 'tenant-secret-123456' } },
    );
    expect(plan.skipped).toEqual([
      {
        name: 'hosted',
        reason:
          "url puts a secret (a password input or a secret variable) into the server's address; only its path or query can hold one",
      },
    ]);
    expect(plan.entries.map((entry) => entry.name)).toEqual(['pathed']);
  });
});
