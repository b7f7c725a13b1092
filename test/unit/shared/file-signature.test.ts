import { describe, expect, it } from 'vitest';
import {
  fileFormatOf,
  markupKindOf,
  rasterFormatOf,
  rasterMediaType,
} from '../../../src/shared/file-signature';

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

describe('other file signatures (one decision for the whole app)', () => {
  it('names documents, archives and media by their bytes', () => {
    expect(fileFormatOf(bytes('%PDF-1.7\n'))).toBe('pdf');
    expect(fileFormatOf(bytes('II*', [0]))).toBe('tiff');
    expect(fileFormatOf(bytes('MM', [0, 0x2a]))).toBe('tiff');
    expect(fileFormatOf(bytes('PK', [3, 4]))).toBe('zip');
    expect(fileFormatOf(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toBe('wav');
    expect(fileFormatOf(bytes('OggS', [0]))).toBe('ogg');
    expect(fileFormatOf(bytes('fLaC'))).toBe('flac');
    expect(fileFormatOf(bytes([0x1a, 0x45, 0xdf, 0xa3]))).toBe('webm');
    expect(fileFormatOf(bytes([0, 0, 0, 0x20], 'ftypisom'))).toBe('iso-media');
    expect(fileFormatOf(bytes('ID3', [3, 0]))).toBe('mp3');
    expect(fileFormatOf(bytes([0xff, 0xfb, 0x90, 0x44]))).toBe('mp3');
    expect(fileFormatOf(bytes('BM....'))).toBe('bmp');
  });

  it('refuses look-alikes: a UTF-16 page, text with ftyp in it, a PDF word', () => {
    expect(fileFormatOf(bytes([0xff, 0xfe], '<html>'))).toBeNull();
    expect(fileFormatOf(bytes('<!--ftyp-->'))).toBeNull();
    expect(fileFormatOf(bytes('%PDF'))).toBeNull();
    // A WebP is not a WAV, though both are RIFF.
    expect(fileFormatOf(bytes('RIFF', [1, 2, 3, 4], 'WEBP'))).toBe('webp');
    expect(fileFormatOf(bytes('plain text'))).toBeNull();
  });

  it('tells SVG and HTML documents from other text', () => {
    expect(markupKindOf(bytes('<?xml version="1.0"?>\n<!-- x -->\n<svg width="1">'))).toBe('svg');
    expect(markupKindOf(bytes([0xef, 0xbb, 0xbf], '  <!DOCTYPE html><p>'))).toBe('html');
    expect(markupKindOf(bytes('<body onload=x()>'))).toBe('html');
    expect(markupKindOf(bytes('{"a": "<html>"}'))).toBeNull();
    expect(markupKindOf(bytes('<svgfoo>'))).toBeNull();
  });
});
