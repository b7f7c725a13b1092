import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  describeAttachments,
  currentImageAttachments,
} from '../../../src/main/services/attachments';
import { sniffMimeType } from '../../../src/main/services/mime-types';
import type { UploadTarget } from '../../../src/main/core/ports';
import { conversationUploads, stageUploads } from '../../../src/main/services/workspace-staging';
import type { Message, MessagePart } from '../../../src/shared/dto';
import type { ArtifactReference } from '../../../src/shared/turn-events';

function file(directory: string, name: string, content: string | Uint8Array, mime: string) {
  const path = join(directory, name);
  writeFileSync(path, content);
  const size = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  return { name, path, mime, size } satisfies ArtifactReference;
}

function message(role: Message['role'], parts: MessagePart[]): Message {
  return {
    id: 'm',
    conversationId: 'c',
    parentId: null,
    role,
    status: 'complete',
    createdAt: 0,
    updatedAt: 0,
    parts,
  };
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('attachments', () => {
  it('sniffs types from bytes before names', () => {
    expect(sniffMimeType('x.txt', PNG)).toBe('image/png');
    expect(sniffMimeType('scan', new TextEncoder().encode('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffMimeType('report.DOCX', new Uint8Array([0x50, 0x4b]))).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(sniffMimeType('blob', new Uint8Array([1, 2]))).toBe('application/octet-stream');
  });

  it('describes files with their sandbox path and inlines small text, capped', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'aivory-attach-'));
    try {
      const notes = file(directory, 'notes.md', `# Title\n${'x'.repeat(25_000)}`, 'text/markdown');
      const image = file(directory, 'photo.png', PNG, 'image/png');
      const { text, inlined } = await describeAttachments([notes, image], true);
      expect(inlined).toEqual(['notes.md']);
      expect(text).toMatch(
        /^\[Attached files\]\n- notes\.md \(text\/markdown, 24\.4 KiB\) at \/workspace\/uploads\/notes\.md\n<file name="notes\.md">\n# Title\nx+\n\[… 5008 more characters\]\n<\/file>\n- photo\.png \(image\/png, 8 B\) at \/workspace\/uploads\/photo\.png$/,
      );
      expect(await describeAttachments([], true)).toEqual({ text: '', inlined: [], images: [] });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("offers the newest user message's images to image_generate, skipping deleted copies", async () => {
    const directory = mkdtempSync(join(tmpdir(), 'aivory-attach-'));
    try {
      const old = file(directory, 'old.png', PNG, 'image/png');
      const current = file(directory, 'new.png', PNG, 'image/png');
      const gone = { ...current, name: 'gone.png', path: join(directory, 'gone.png') };
      const csv = file(directory, 'a.csv', 'a,b', 'text/csv');
      const images = await currentImageAttachments([
        message('user', [{ kind: 'attachment', attachment: old }]),
        message('assistant', [{ kind: 'text', text: 'ok' }]),
        message('user', [
          { kind: 'attachment', attachment: csv },
          { kind: 'attachment', attachment: current },
          { kind: 'attachment', attachment: gone },
        ]),
      ]);
      expect(images.map((image) => [image.name, image.mime, image.bytes.byteLength])).toEqual([
        ['new.png', 'image/png', PNG.byteLength],
      ]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('workspace staging', () => {
  it('stages attachments and generated images that are missing, once per name', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'aivory-stage-'));
    try {
      const csv = file(directory, 'data.csv', 'a,b\n1,2\n', 'text/csv');
      const present = file(directory, 'present.txt', 'here', 'text/plain');
      const generated = file(directory, 'generated-1.png', PNG, 'image/png');
      const plot = file(directory, 'plot.png', PNG, 'image/png');
      const deleted = { ...csv, name: 'deleted.csv', path: join(directory, 'nope.csv') };
      const messages = [
        message('user', [
          { kind: 'attachment', attachment: csv },
          { kind: 'attachment', attachment: present },
          { kind: 'attachment', attachment: deleted },
        ]),
        message('assistant', [
          {
            kind: 'tool-result',
            toolCallId: 't1',
            name: 'python_execute',
            status: 'ok',
            output: '',
            durationMs: 1,
          },
          { kind: 'artifact', artifact: plot },
          {
            kind: 'tool-result',
            toolCallId: 't2',
            name: 'image_generate',
            status: 'ok',
            output: '',
            durationMs: 1,
          },
          { kind: 'artifact', artifact: generated },
        ]),
        message('user', [{ kind: 'attachment', attachment: { ...csv, path: '/elsewhere' } }]),
      ];
      const files = conversationUploads(messages);
      // The plot came from python_execute (already in outputs/); the second data.csv is a duplicate name.
      expect(files.map((entry) => entry.name)).toEqual([
        'data.csv',
        'present.txt',
        'deleted.csv',
        'generated-1.png',
      ]);
      const uploaded: { name: string; bytes: number; directory: string | undefined }[] = [];
      const target: UploadTarget = {
        list: (_session, path) => {
          expect(path).toBe('uploads');
          return Promise.resolve([{ path: 'uploads/present.txt', type: 'file', size: 4 }]);
        },
        upload: (_session, name, body, options) => {
          uploaded.push({ name, bytes: body.byteLength, directory: options.directory });
          return Promise.resolve({});
        },
      };
      const sent = await stageUploads(target, 's1', files, new AbortController().signal);
      expect(sent).toEqual(['data.csv', 'generated-1.png']);
      expect(uploaded).toEqual([
        { name: 'data.csv', bytes: 8, directory: 'uploads' },
        { name: 'generated-1.png', bytes: PNG.byteLength, directory: 'uploads' },
      ]);
      // Nothing to stage: no listing round trip at all.
      const idle: UploadTarget = {
        list: () => Promise.reject(new Error('should not list')),
        upload: () => Promise.reject(new Error('should not upload')),
      };
      expect(await stageUploads(idle, 's1', [], new AbortController().signal)).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
