/** An MCP resource as files to attach: names from the URI, types from the bytes, the caps. */
import { describe, expect, it } from 'vitest';
import type { McpResourceContents } from '../../../src/main/core/ports';
import { MAX_ATTACHMENT_BYTES } from '../../../src/shared/ipc/limits';
import { fileName, resourceFiles } from '../../../src/main/services/mcp/resource-attachments';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function contents(parts: Partial<McpResourceContents>): McpResourceContents {
  return { text: '', blobs: [], texts: [], ...parts };
}

describe('resource files', () => {
  it('names come from the URI, decoded and made safe, with an extension for the type', () => {
    expect(fileName('test://images/red%20square.png', 'image/png')).toBe('red square.png');
    expect(fileName('demo://resource/dynamic/blob/7', 'text/plain')).toBe('7.txt');
    expect(fileName('file:///home/me/notes.md?version=2#top', 'text/markdown')).toBe('notes.md');
    expect(fileName('test://x/evil.bat', 'image/png')).toBe('evil.bat.png');
    expect(fileName('test://x/..%2F..%2Fetc%2Fpasswd', 'text/plain')).toBe('_.._etc_passwd.txt');
    expect(fileName('test://x/%E0%A4%A', 'application/octet-stream')).toBe('%E0%A4%A.bin');
    expect(fileName('weird:', 'application/pdf')).toBe('resource.pdf');
    expect(fileName('test://host/', 'text/plain')).toBe('host.txt');
    expect(fileName(`test://x/${'a'.repeat(500)}`, 'text/plain')).toBe(`${'a'.repeat(80)}.txt`);
    expect(fileName('test://x/a\u0000b', 'text/plain')).toBe('a_b.txt');
  });

  it('text parts keep a text type; binary parts are typed from their bytes', () => {
    const files = resourceFiles(
      contents({
        texts: [
          { uri: 'test://a/data.json', mimeType: 'application/json', text: '{}' },
          { uri: 'test://a/page', mimeType: 'application/x-evil', text: 'hi' },
        ],
        blobs: [
          { uri: 'test://a/photo', mimeType: 'application/octet-stream', data: PNG },
          { uri: 'test://a/photo', mimeType: 'image/png', data: new Uint8Array([1, 2]) },
          { uri: '', mimeType: 'application/zip', data: new Uint8Array([3]) },
        ],
      }),
      'test://a/fallback',
    );
    expect(files.map((file) => [file.name, file.mime])).toEqual([
      ['data.json', 'application/json'],
      ['page.txt', 'text/plain'],
      ['photo.png', 'image/png'],
      ['photo.bin', 'application/octet-stream'],
      ['fallback.zip', 'application/zip'],
    ]);
  });

  it('the same name twice gets a number', () => {
    const files = resourceFiles(
      contents({
        texts: [
          { uri: 'test://a/x.txt', mimeType: 'text/plain', text: '1' },
          { uri: 'test://b/X.txt', mimeType: 'text/plain', text: '2' },
        ],
      }),
      'test://a',
    );
    expect(files.map((file) => file.name)).toEqual(['x.txt', 'X-2.txt']);
  });

  it('an empty resource and one over the upload cap are refused with a clear message', () => {
    expect(() => resourceFiles(contents({}), 'test://empty')).toThrow(/no content to attach/);
    const huge = new Uint8Array(MAX_ATTACHMENT_BYTES + 1);
    expect(() =>
      resourceFiles(
        contents({ blobs: [{ uri: 'test://big.bin', mimeType: null, data: huge }] }),
        'test://big.bin',
      ),
    ).toThrow(/attachments are limited to 40 MiB/);
  });
});
