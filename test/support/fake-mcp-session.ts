/**
 * An McpSession that offers nothing (no tools, prompts or resources; calls refused) with the
 * methods a test cares about replaced: the stand-in for a server in service-layer unit tests.
 */
import type { McpSession } from '../../src/main/core/ports';

export function fakeMcpSession(overrides: Partial<McpSession> = {}): McpSession {
  return {
    serverName: 'fake',
    serverVersion: '1.0',
    features: {
      tools: false,
      prompts: false,
      resources: false,
      resourceSubscribe: false,
      completions: false,
    },
    complete: () => Promise.resolve({ values: [], hasMore: false, total: null }),
    subscribeResource: () => Promise.resolve(false),
    unsubscribeResource: () => Promise.resolve(),
    onResourceUpdated: () => undefined,
    listTools: () => Promise.resolve([]),
    callTool: () => Promise.reject(new Error('no calls in this test')),
    listPrompts: () => Promise.resolve([]),
    getPrompt: () => Promise.resolve(''),
    listResources: () => Promise.resolve([]),
    readResource: () => Promise.resolve(''),
    readResourceContents: () => Promise.resolve({ text: '', texts: [], blobs: [] }),
    listResourceTemplates: () => Promise.resolve([]),
    onToolsChanged: () => undefined,
    onLibraryChanged: () => undefined,
    onClose: () => undefined,
    setLogLevel: () => Promise.resolve(false),
    rootsChanged: () => Promise.resolve(false),
    close: () => Promise.resolve(),
    ...overrides,
  };
}
