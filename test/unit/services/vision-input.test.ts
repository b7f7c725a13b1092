/**
 * Vision input (services/vision-input.ts): which attachments become image parts for a vision
 * model — by their bytes, within the size and count bounds, the rest described — and what a
 * non-vision model reads (today's description, no images); the OpenAI wire form of an image part;
 * the history's last user message carrying the images.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toOpenAiMessages } from '../../../src/main/adapters/openai/openai-messages';
import { describeAttachments } from '../../../src/main/services/attachments';
import { buildHistory } from '../../../src/main/services/history';
import {
  IMAGE_TOKEN_ESTIMATE,
  visionInput,
  visionNote,
} from '../../../src/main/services/vision-input';
import type { ArtifactReference } from '../../../src/shared/turn-events';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const GIF = new TextEncoder().encode('GIF89a\x01\x00\x01\x00');
const WEBP = new Uint8Array([
  ...new TextEncoder().encode('RIFF'),
  4,
  0,
  0,
  0,
  ...new TextEncoder().encode('WEBPVP8 '),
]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>');

let directory = '';
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'aivory-vision-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** A stored attachment; `mime` is what was declared, which the sniffing must not trust. */
function stored(name: string, bytes: Uint8Array, mime: string): ArtifactReference {
  const path = join(directory, name);
  writeFileSync(path, bytes);
  return { name, path, mime, size: bytes.byteLength };
}

describe('vision input', () => {
  it('sends png, jpeg, gif and webp by their bytes, whatever their name or declared type', async () => {
    const input = await visionInput([
      stored('a.png', PNG, 'image/png'),
      stored('photo.txt', JPEG, 'text/plain'),
      stored('anim.gif', GIF, 'image/gif'),
      stored('pic', WEBP, 'application/octet-stream'),
      stored('fake.png', new TextEncoder().encode('not an image'), 'image/png'),
      stored('logo.svg', SVG, 'image/svg+xml'),
      { name: 'gone.png', path: join(directory, 'gone.png'), mime: 'image/png', size: 8 },
    ]);
    expect(input.sent).toEqual(['a.png', 'photo.txt', 'anim.gif', 'pic']);
    expect(input.images.map((image) => image.mime)).toEqual([
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
    ]);
    expect(Buffer.from(input.images[0]?.data ?? []).equals(Buffer.from(PNG))).toBe(true);
    expect(input.leftOut).toEqual([]);
  });

  it('leaves out images over the size limit and past the count, and says so', async () => {
    const big = new Uint8Array(64);
    big.set(PNG);
    const input = await visionInput(
      [
        stored('big.png', big, 'image/png'),
        stored('one.png', PNG, 'image/png'),
        stored('two.jpg', JPEG, 'image/jpeg'),
        stored('three.gif', GIF, 'image/gif'),
      ],
      { maxBytes: 32, maxImages: 2 },
    );
    expect(input.sent).toEqual(['one.png', 'two.jpg']);
    expect(input.leftOut).toEqual([
      { name: 'big.png', reason: 'larger than 32 B' },
      { name: 'three.gif', reason: 'only 2 images of a message are shown' },
    ]);
    expect(visionNote(input)).toEqual([
      '(Attached below as images, in this order: one.png, two.jpg.)',
      '(Not attached as images, only described here: big.png (larger than 32 B); three.gif (only 2 images of a message are shown).)',
    ]);
  });

  it('a vision model gets the description plus the images, which taint; a non-vision model only the description', async () => {
    const files = [
      stored('red.png', PNG, 'image/png'),
      stored('notes.txt', new TextEncoder().encode('hi'), 'text/plain'),
    ];
    const plain = await describeAttachments(files, true);
    expect(plain.images).toEqual([]);
    expect(plain.inlined).toEqual(['notes.txt']);
    expect(plain.text).toContain('- red.png (image/png, 12 B) at /workspace/uploads/red.png');
    expect(plain.text).not.toContain('as images');

    const seen = await describeAttachments(files, true, true);
    expect(seen.images.map((image) => image.mime)).toEqual(['image/png']);
    expect(seen.inlined).toEqual(['notes.txt', 'red.png']);
    // The text still names the file and where python finds it.
    expect(seen.text).toContain('- red.png (image/png, 12 B) at /workspace/uploads/red.png');
    expect(seen.text).toContain('(Attached below as images, in this order: red.png.)');
  });

  it('the last user message carries the images, counted against the context window; the wire form is a data URL part', () => {
    const image = { mime: 'image/png', data: PNG };
    const previous = [
      {
        id: 'm1',
        conversationId: 'c',
        parentId: null,
        role: 'user' as const,
        status: 'complete' as const,
        createdAt: 0,
        updatedAt: 0,
        parts: [{ kind: 'text' as const, text: 'x'.repeat(6000) }],
      },
      {
        id: 'm2',
        conversationId: 'c',
        parentId: 'm1',
        role: 'assistant' as const,
        status: 'complete' as const,
        createdAt: 0,
        updatedAt: 0,
        parts: [{ kind: 'text' as const, text: 'ok' }],
      },
    ];
    const options = { systemPrompt: 'S', previous, userText: 'What is this?', contextWindow: 4000 };
    expect(buildHistory(options)).toHaveLength(4);
    const withImages = buildHistory({ ...options, userImages: [image] });
    // The image's estimate leaves no room for the long earlier message.
    expect(IMAGE_TOKEN_ESTIMATE).toBeGreaterThan(0);
    expect(withImages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(withImages.at(-1)).toEqual({ role: 'user', content: 'What is this?', images: [image] });

    const wire = toOpenAiMessages(withImages);
    expect(wire[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        {
          type: 'image_url',
          image_url: { url: `data:image/png;base64,${Buffer.from(PNG).toString('base64')}` },
        },
      ],
    });
    expect(toOpenAiMessages(buildHistory(options)).at(-1)).toEqual({
      role: 'user',
      content: 'What is this?',
    });
  });
});
