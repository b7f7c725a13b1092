import { describe, expect, it } from 'vitest';
import { rasterFormatOf, rasterMediaType } from '../../../src/shared/image-signature';

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(
    parts.flatMap((part) =>
      typeof part === 'string' ? [...part].map((char) => char.charCodeAt(0)) : part,
    ),
  );

describe('raster image signatures (one decision for the whole app)', () => {
  it('names each format by its bytes', () => {
    expect(rasterFormatOf(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], '....'))).toBe('png');
    expect(rasterFormatOf(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(rasterFormatOf(bytes('GIF89a....'))).toBe('gif');
    expect(rasterFormatOf(bytes('GIF87a'))).toBe('gif');
    expect(rasterFormatOf(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('webp');
    expect(rasterMediaType(bytes('RIFF', [1, 2, 3, 4], 'WEBP'))).toBe('image/webp');
  });

  it('refuses look-alikes and cut-off signatures', () => {
    // A PNG's first four bytes only, a RIFF that is a WAV, a GIF without its version, SVG.
    expect(rasterFormatOf(bytes([0x89], 'PNG'))).toBeNull();
    expect(rasterFormatOf(bytes('RIFF', [1, 2, 3, 4], 'WAVE'))).toBeNull();
    expect(rasterFormatOf(bytes('GIF8'))).toBeNull();
    expect(rasterMediaType(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(rasterFormatOf(new Uint8Array())).toBeNull();
  });

  it('counts "BM" as a bitmap only where bitmaps are accepted', () => {
    expect(rasterFormatOf(bytes('BM6....'))).toBeNull();
    expect(rasterFormatOf(bytes('BM6....'), { bmp: true })).toBe('bmp');
  });
});
