/**
 * The roots adapter's pure parts: file:// URLs for POSIX and Windows paths (percent-encoded), the
 * protocol shape of a root (no name key without a label), and roots announced only with a source.
 */
import { describe, expect, it } from 'vitest';
import {
  rootsCapability,
  protocolRoot,
  rootUri,
} from '../../../../src/main/adapters/mcp/mcp-roots';

describe('MCP roots adapter', () => {
  it('turns absolute paths into file:// URLs', () => {
    expect(rootUri('/home/me/notes')).toBe('file:///home/me/notes');
    expect(rootUri('/home/me/My notes #1?%')).toBe('file:///home/me/My%20notes%20%231%3F%25');
    expect(rootUri('/home/me/Ω')).toBe('file:///home/me/%CE%A9');
    expect(rootUri('C:\\Users\\me\\My Docs')).toBe('file:///C:/Users/me/My%20Docs');
    expect(rootUri('d:/work')).toBe('file:///d:/work');
    expect(rootUri('\\\\server\\share\\team')).toBe('file://server/share/team');
  });

  it('gives a root a name only when it has one', () => {
    expect(protocolRoot({ path: '/srv/a' })).toEqual({ uri: 'file:///srv/a' });
    expect(protocolRoot({ path: '/srv/a', name: 'A' })).toEqual({
      uri: 'file:///srv/a',
      name: 'A',
    });
  });

  it('announces roots with list_changed only when there is a source', () => {
    expect(rootsCapability({})).toEqual({});
    expect(rootsCapability({ roots: () => Promise.resolve([]) })).toEqual({
      roots: { listChanged: true },
    });
  });
});
