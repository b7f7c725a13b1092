/**
 * Writes one upgrade fixture with a PAST build's own store code, then reads it back through that
 * same code into a manifest. Run by `make.ts` (never by hand):
 *
 *   node --import tsx scripts/upgrade-fixtures/write-fixture.ts WORKTREE VERSION OUT.db OUT.json
 *
 * WORKTREE is a checkout of the era's commit; VERSION its latest schema version. Everything goes
 * through that checkout's `openStore` and its store methods, so the file holds what that build
 * really wrote (its JSON shapes, its defaults). The methods were stable enough for one writer:
 * what an era lacks is left out by the `version >=` branches below (the migration that added it),
 * and the early flat store (one object, before v7) is reached through `storesOf`.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

type Method = (...args: unknown[]) => unknown;
type Api = Record<string, Method | undefined>;
interface EraStore extends Api {
  close: Method;
}

const [worktree, versionText, dbPath, manifestPath] = process.argv.slice(2);
if (!worktree || !versionText || !dbPath || !manifestPath) {
  throw new Error('usage: write-fixture.ts WORKTREE VERSION OUT.db OUT.json');
}
const version = Number(versionText);

/** A fixed clock: the same fixture on every run (ids are fixed too). */
let tick = 1_764_000_000_000;
const clock = { now: () => (tick += 1000) };

const storeModule = (await import(
  pathToFileURL(join(worktree, 'src/main/adapters/sqlite/sqlite-store.ts')).href
)) as { openStore: (path: string, options: { clock: typeof clock }) => EraStore };

for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
const store = storeModule.openStore(dbPath, { clock });

/** Before v7 one object carried every method; since, one object per aggregate. */
function storesOf(
  root: EraStore,
): Record<'conversations' | 'memories' | 'settings' | 'library' | 'mcp', Api> {
  const part = (name: string): Api => (root[name] as unknown as Api | undefined) ?? root;
  return {
    conversations: part('conversations'),
    memories: part('memories'),
    settings: part('settings'),
    library: part('library'),
    mcp: part('mcp'),
  };
}

/** Calls a method the era must have: a missing one is this writer's bug, said by name. */
function call(api: Api, name: string, ...args: unknown[]): unknown {
  const method = api[name];
  if (typeof method !== 'function') throw new Error(`v${version}: the store has no ${name}()`);
  return method.apply(api, args);
}

const { conversations, memories, settings, library, mcp } = storesOf(store);
/** The file a user attached (v3+): the part references a copy under the data directory. */
const attachment = {
  name: 'itinerary.pdf',
  path: 'uploads/conv-trip/itinerary.pdf',
  mime: 'application/pdf',
  size: 48_213,
};

try {
  writeSettingsAndModels();
  if (version >= 2) writeLibrary();
  if (version >= 4) writeMcp();
  writeTripConversation();
  writePythonConversation();
  writeEditedConversation();
  writeMemories();
  writeFileSync(manifestPath, `${JSON.stringify(readManifest(), null, 2)}\n`);
} finally {
  call(store, 'close');
}
if (existsSync(`${dbPath}-wal`))
  throw new Error(`${dbPath}-wal is left: the close did not checkpoint`);

function writeSettingsAndModels(): void {
  call(settings, 'saveModel', {
    id: 'model-local',
    label: 'Local Qwen',
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'qwen3:8b',
    toolMode: 'native',
    contextWindow: 32_768,
    defaultTools: null,
    apiKeyRef: null,
    isDefault: true,
    ...(version >= 8 ? { vision: true } : {}),
    ...(version >= 11 ? { defaults: { temperature: 0.4, maxOutputTokens: 2048 } } : {}),
  });
  call(settings, 'saveModel', {
    id: 'model-cloud',
    label: 'Cloud model',
    baseUrl: 'https://api.example.com/v1',
    model: 'big-model-2',
    toolMode: 'prompt',
    contextWindow: 128_000,
    defaultTools: ['web_fetch', 'python_execute'],
    // A reference into the secret store (secrets.json), never the key itself.
    apiKeyRef: 'model:model-cloud:apiKey',
    isDefault: false,
    ...(version >= 4 ? { defaultMcpServices: ['mcp-files'] } : {}),
  });
  call(settings, 'setToolAvailability', 'image_generate', false);
  call(settings, 'setToolAvailability', 'web_fetch', true);
  call(settings, 'setSetting', 'search', {
    provider: 'searxng',
    baseUrl: 'http://127.0.0.1:8888',
    engines: 'duckduckgo',
    apiKeyRef: 'search:apiKey',
  });
  call(settings, 'setSetting', 'sandbox', {
    baseUrl: '',
    apiKeyRef: 'sandbox:apiKey',
    execTimeoutSeconds: 90,
    idleReapSeconds: 900,
  });
}

function writeLibrary(): void {
  call(library, 'createSkill', {
    name: 'weekly-report',
    icon: '📝',
    whenToUse: 'When the user asks for their weekly report.',
    instructions: '# Weekly report\n\nSummarise the week in three bullet points.',
    assets: [
      {
        name: 'template.md',
        mime: 'text/markdown',
        data: new TextEncoder().encode('# Week {{n}}\n'),
      },
    ],
  });
  call(library, 'createPromptTemplate', {
    id: 'prompt-translate',
    title: 'Translate',
    body: 'Translate into {{language}}:\n\n{{text}}',
    tags: ['language', 'daily'],
  });
}

function writeMcp(): void {
  call(mcp, 'createService', {
    id: 'mcp-files',
    name: 'files',
    icon: '📁',
    description: 'Local files over stdio',
    transport: 'stdio',
    url: null,
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/user/notes'],
    env: [{ name: 'FILES_TOKEN', secretRef: 'mcp:mcp-files:env:FILES_TOKEN' }],
    headers: [],
    timeoutMs: 30_000,
    maxTimeoutMs: 120_000,
    oauth: null,
  });
  call(mcp, 'createService', {
    id: 'mcp-tracker',
    name: 'tracker',
    icon: '🐞',
    description: 'The team issue tracker',
    transport: 'streamable-http',
    url: 'https://tracker.example.com/mcp',
    command: null,
    args: [],
    env: [],
    headers: [{ name: 'Authorization', secretRef: 'mcp:mcp-tracker:header:Authorization' }],
    timeoutMs: 20_000,
    maxTimeoutMs: 60_000,
    oauth:
      version >= 13
        ? {
            grant: 'authorization_code',
            clientId: 'aivory-desktop',
            clientSecretRef: 'mcp:mcp-tracker:oauth:clientSecret',
            clientKeyRef: null,
            keyAlgorithm: null,
            trustedOrigins: [],
          }
        : null,
  });
  call(mcp, 'updateService', 'mcp-tracker', {
    enabled: false,
    testState: 'error',
    testMessage: 'HTTP 401 from the server',
    testedAt: clock.now(),
  });
  const tools = [
    {
      name: 'read_file',
      description: 'Read a file under the shared folders.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'write_file',
      description: 'Write a file.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
      },
      annotations: null,
    },
  ];
  call(mcp, 'saveLatest', 'mcp-files', tools);
  call(mcp, 'acceptLatest', 'mcp-files');
  // A newer list synced but not yet accepted: `latest` differs from `accepted`.
  call(mcp, 'saveLatest', 'mcp-files', [
    { ...tools[0], description: 'Read a text file under the shared folders.' },
    tools[1],
  ]);
  call(
    mcp,
    'setToolApproval',
    'mcp-files',
    'read_file',
    version >= 5 ? 'allow-even-after-web' : 'allow',
  );
  call(mcp, 'setToolApproval', 'mcp-files', 'write_file', 'ask');
  call(mcp, 'updateService', 'mcp-files', {
    testState: 'connected',
    testMessage: null,
    testedAt: clock.now(),
    syncedAt: clock.now(),
    stale: true,
  });
  if (version >= 14) {
    call(mcp, 'setRoots', 'mcp-files', [
      { path: '/home/user/notes', name: 'Notes' },
      { path: '/home/user/projects' },
    ]);
  }
  if (version >= 17) {
    call(mcp, 'setServerFeatures', 'mcp-files', {
      tools: true,
      prompts: false,
      resources: true,
      resourceSubscribe: false,
      completions: false,
    });
  }
}

function message(
  conversationId: string,
  id: string,
  role: 'user' | 'assistant',
  parts: unknown[],
  extra: { status?: string; parentId?: string | null } = {},
): void {
  call(conversations, 'createMessage', {
    id,
    conversationId,
    role,
    status: extra.status ?? 'complete',
    parts,
    ...(extra.parentId === undefined ? {} : { parentId: extra.parentId }),
  });
}

function turnRecord(
  conversationId: string,
  messageId: string,
  fields: {
    stopReason?: string;
    errorCode?: string;
    errorMessage?: string;
    toolCalls?: Record<string, number>;
  } = {},
): void {
  call(conversations, 'saveTurnRecord', {
    id: `turn-${messageId}`,
    conversationId,
    messageId,
    modelId: 'model-local',
    modelName: 'qwen3:8b',
    stopReason: fields.stopReason ?? 'completed',
    toolCalls: fields.toolCalls ?? {},
    providerRounds: Object.keys(fields.toolCalls ?? {}).length + 1,
    startedAt: clock.now(),
    durationMs: 4321,
    errorCode: fields.errorCode ?? null,
    errorMessage: fields.errorMessage ?? null,
    budget: {
      perTool: { web_fetch: { used: 1, limit: 5 } },
      total: { used: 1, limit: 12 },
      rounds: { used: 2, limit: 8 },
    },
    omittedMessages: 0,
    usage: { inputTokens: 1200, outputTokens: 345 },
    taint:
      fields.toolCalls?.web_fetch === undefined
        ? null
        : {
            toolCallId: 'call-fetch-1',
            reasons: [{ tool: 'web_fetch', detail: 'https://example.com/lisbon' }],
          },
  });
}

/** Tool calls and results, an artifact, an attachment, and (v10+) a regenerated answer. */
function writeTripConversation(): void {
  call(conversations, 'createConversation', {
    id: 'conv-trip',
    title: 'Trip to Lisbon',
    modelId: 'model-local',
  });
  message('conv-trip', 'm-trip-q1', 'user', [
    { kind: 'text', text: 'What is the weather in Lisbon in May?' },
  ]);
  message('conv-trip', 'm-trip-a1', 'assistant', [
    { kind: 'reasoning', text: 'I should look it up.' },
    {
      kind: 'tool-call',
      toolCallId: 'call-fetch-1',
      name: 'web_fetch',
      arguments: { url: 'https://example.com/lisbon', max_chars: 4000 },
    },
    {
      kind: 'tool-result',
      toolCallId: 'call-fetch-1',
      name: 'web_fetch',
      status: 'ok',
      output: 'Lisbon in May: 22 °C by day, 14 °C at night, little rain.',
      durationMs: 812,
    },
    { kind: 'text', text: 'Lisbon in May is mild: about **22 °C** by day and little rain.' },
    {
      kind: 'artifact',
      artifact: {
        name: 'lisbon.csv',
        path: 'artifacts/conv-trip/lisbon.csv',
        mime: 'text/csv',
        size: 120,
      },
    },
  ]);
  turnRecord('conv-trip', 'm-trip-a1', { toolCalls: { web_fetch: 1 } });
  message('conv-trip', 'm-trip-q2', 'user', [
    { kind: 'text', text: 'Here is my itinerary — does it fit the weather?' },
    ...(version >= 3 ? [{ kind: 'attachment', attachment }] : []),
  ]);
  message('conv-trip', 'm-trip-a2', 'assistant', [
    { kind: 'text', text: 'Yes: pack a light jacket for the evenings.' },
  ]);
  turnRecord('conv-trip', 'm-trip-a2');
  if (version >= 10) {
    // Regenerated: a sibling answer under the same question; then the first one shown again.
    message(
      'conv-trip',
      'm-trip-a2b',
      'assistant',
      [{ kind: 'text', text: 'It fits; evenings are cool.' }],
      {
        parentId: 'm-trip-q2',
      },
    );
    turnRecord('conv-trip', 'm-trip-a2b');
    call(conversations, 'showVersion', 'conv-trip', 'm-trip-a2');
  }
  if (version >= 3)
    call(conversations, 'setConversationToolToggles', 'conv-trip', {
      web_fetch: true,
      image_generate: false,
    });
  if (version >= 12) call(conversations, 'setConversationPinned', 'conv-trip', true);
  if (version >= 4) call(mcp, 'allowForConversation', 'conv-trip', 'mcp-files', 'read_file');
}

/** A failed tool call, an error answer with its message, an interrupted one. */
function writePythonConversation(): void {
  call(conversations, 'createConversation', {
    id: 'conv-python',
    title: 'Plot sales',
    modelId: 'model-cloud',
  });
  message('conv-python', 'm-py-q1', 'user', [{ kind: 'text', text: 'Plot sales.csv by month' }]);
  message(
    'conv-python',
    'm-py-a1',
    'assistant',
    [
      {
        kind: 'tool-call',
        toolCallId: 'call-py-1',
        name: 'python_execute',
        arguments: { code: "import pandas as pd\nprint(pd.read_csv('sales.csv').head())" },
      },
      {
        kind: 'tool-result',
        toolCallId: 'call-py-1',
        name: 'python_execute',
        status: 'error',
        output: "FileNotFoundError: [Errno 2] No such file or directory: 'sales.csv'",
        durationMs: 1530,
      },
    ],
    { status: 'error' },
  );
  turnRecord('conv-python', 'm-py-a1', {
    stopReason: 'error',
    errorCode: 'provider',
    errorMessage: 'The model server closed the connection.',
    toolCalls: { python_execute: 1 },
  });
  message('conv-python', 'm-py-q2', 'user', [
    { kind: 'text', text: 'Try again with the attached file' },
  ]);
  message('conv-python', 'm-py-a2', 'assistant', [{ kind: 'text', text: 'Reading the file now' }], {
    status: 'interrupted',
  });
  if (version >= 11) {
    call(conversations, 'setConversationSettings', 'conv-python', {
      systemPrompt: { kind: 'text', text: 'Answer with code first.' },
      temperature: 0.2,
      contextPolicy: { kind: 'messages', count: 20 },
    });
  }
  if (version >= 16) call(conversations, 'setGeneratedTitle', 'conv-python', 'Monthly sales plot');
}

/** A renamed conversation; (v10+) an edited question forking the path. */
function writeEditedConversation(): void {
  call(conversations, 'createConversation', {
    id: 'conv-edit',
    title: 'New conversation',
    modelId: null,
  });
  message('conv-edit', 'm-ed-q1', 'user', [{ kind: 'text', text: 'Name three rivers in Europe' }]);
  message('conv-edit', 'm-ed-a1', 'assistant', [
    { kind: 'text', text: 'The Danube, the Rhine and the Loire.' },
  ]);
  turnRecord('conv-edit', 'm-ed-a1');
  if (version >= 10) {
    message(
      'conv-edit',
      'm-ed-q1b',
      'user',
      [{ kind: 'text', text: 'Name three rivers in Asia' }],
      {
        parentId: null,
      },
    );
    message('conv-edit', 'm-ed-a1b', 'assistant', [
      { kind: 'text', text: 'The Yangtze, the Mekong and the Ganges.' },
    ]);
    turnRecord('conv-edit', 'm-ed-a1b');
  }
  call(conversations, 'renameConversation', 'conv-edit', 'Rivers');
}

function writeMemories(): void {
  call(memories, 'saveMemory', {
    id: 'mem-name',
    memoryText: "The user's name is Ana.",
    slot: 'name',
    value: 'Ana',
    conversationId: null,
  });
  call(memories, 'saveMemory', {
    id: 'mem-trip',
    memoryText: 'Travels to Lisbon in May.',
    slot: null,
    value: null,
    conversationId: 'conv-trip',
  });
  call(memories, 'saveMemory', {
    id: 'mem-old',
    memoryText: 'Prefers Celsius.',
    slot: 'units',
    value: 'metric',
    conversationId: null,
    status: 'ARCHIVED',
  });
  if (version >= 5) {
    call(memories, 'saveMemory', {
      id: 'mem-pending',
      memoryText: 'Likes the hotel from the page.',
      slot: null,
      value: null,
      conversationId: 'conv-trip',
      status: 'PENDING',
      origin: { turnId: 'turn-m-trip-a1', reason: 'web_fetch https://example.com/lisbon' },
    });
  }
}

/** What was written, read back through the era's own methods, with the row count of each table. */
function readManifest(): Record<string, unknown> {
  const conversationIds = ['conv-trip', 'conv-python', 'conv-edit'];
  const perConversation = (read: (id: string) => unknown): Record<string, unknown> =>
    Object.fromEntries(conversationIds.map((id) => [id, read(id)]));
  const services = version >= 4 ? (call(mcp, 'listServices') as { id: string }[]) : [];
  const skills =
    version >= 2 ? (call(library, 'listSkills') as { name: string; builtIn: boolean }[]) : [];
  return {
    schemaVersion: version,
    counts: tableCounts(),
    conversations: call(conversations, 'listConversations'),
    messages: perConversation((id) =>
      call(conversations, version >= 10 ? 'listAllMessages' : 'listMessages', id),
    ),
    shownPath: perConversation((id) =>
      (call(conversations, 'listMessages', id) as { id: string }[]).map((shown) => shown.id),
    ),
    versions:
      version >= 10 ? perConversation((id) => call(conversations, 'listVersions', id)) : null,
    turnRecords: perConversation((id) => call(conversations, 'listTurnRecords', id)),
    memories: call(memories, 'listMemories'),
    models: call(settings, 'listModels'),
    settings: {
      search: call(settings, 'getSetting', 'search'),
      sandbox: call(settings, 'getSetting', 'sandbox'),
    },
    toolAvailability: call(settings, 'getToolAvailability'),
    skills: skills
      .filter((skill) => !skill.builtIn)
      .map((skill) => ({
        ...skill,
        assetText: new TextDecoder().decode(
          call(library, 'readSkillAsset', skill.name, 'template.md') as Uint8Array,
        ),
      })),
    promptTemplates: version >= 2 ? call(library, 'listPromptTemplates') : [],
    mcp: {
      services,
      tools: Object.fromEntries(
        services.map((service) => [service.id, call(mcp, 'listTools', service.id)]),
      ),
      roots:
        version >= 14
          ? Object.fromEntries(services.map((s) => [s.id, call(mcp, 'listRoots', s.id)]))
          : null,
      serverFeatures:
        version >= 17
          ? Object.fromEntries(services.map((s) => [s.id, call(mcp, 'getServerFeatures', s.id)]))
          : null,
      allowedForConversation:
        version >= 4
          ? [
              [
                'conv-trip',
                'mcp-files',
                'read_file',
                call(mcp, 'isAllowedForConversation', 'conv-trip', 'mcp-files', 'read_file'),
              ],
            ]
          : [],
    },
  };
}

/** Rows per table (FTS shadow tables left out: their layout is SQLite's business). */
function tableCounts(): Record<string, number> {
  const database = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const names = database
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           AND name NOT LIKE 'messages_fts_%' ORDER BY name`,
      )
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      names.map((name) => [
        name,
        database.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as number,
      ]),
    );
  } finally {
    database.close();
  }
}
