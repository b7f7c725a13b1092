import { describe, expect, it } from 'vitest';
import { downloadName } from '../../../src/main/tools/web-download-name';
import { describeNonImage, sniffImage } from '../../../src/main/tools/web-image-sniff';
import {
  buildPng,
  buildPngBomb,
  HOSTILE_SVG,
  TINY_GIF,
  TINY_JPEG,
} from '../../support/fetch-images';

describe('image sniffing', () => {
  it('identifies formats by magic bytes and reads their size from the header', () => {
    expect(sniffImage(buildPng(3, 2))).toMatchObject({
      format: 'png',
      extension: 'png',
      width: 3,
      height: 2,
    });
    expect(sniffImage(TINY_JPEG)).toMatchObject({
      format: 'jpeg',
      extension: 'jpg',
      width: 1,
      height: 1,
    });
    expect(sniffImage(TINY_GIF)).toMatchObject({ format: 'gif', width: 1, height: 1 });
    expect(sniffImage(buildPngBomb(50_000, 50_000))).toMatchObject({
      width: 50_000,
      height: 50_000,
    });
    const webp = Buffer.concat([
      Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f', 'latin1'),
      Buffer.from([0x63, 0x40, 0x06, 0x00, 0, 0, 0, 0]),
    ]);
    expect(sniffImage(webp)).toMatchObject({ format: 'webp', width: 100, height: 26 });
    const bmp = Buffer.alloc(30);
    bmp.write('BM', 0, 'latin1');
    bmp.writeInt32LE(640, 18);
    bmp.writeInt32LE(-480, 22);
    expect(sniffImage(bmp)).toMatchObject({ format: 'bmp', width: 640, height: 480 });
  });

  it('does not take SVG, HTML or PDF for images and says what they are', () => {
    expect(sniffImage(HOSTILE_SVG)).toBeNull();
    expect(describeNonImage(HOSTILE_SVG)).toBe('an SVG document');
    expect(describeNonImage(Buffer.from('<!DOCTYPE html><html><body>hi'))).toBe('an HTML page');
    expect(describeNonImage(Buffer.from('%PDF-1.7'))).toBe('a PDF document');
    expect(describeNonImage(Buffer.from([1, 2, 3]))).toMatch(/not a PNG/);
    expect(sniffImage(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull();
  });
});

describe('download names', () => {
  const url = 'https://img.example.org/photos/Cat%20Photo.JPG?size=large';
  it('takes the URL segment when no filename is given and fixes the extension', () => {
    expect(downloadName(null, url, 'png')).toBe('Cat_Photo.png');
    expect(downloadName('', 'https://example.org/', 'jpg')).toBe('image.jpg');
    expect(downloadName('chart.final', 'https://example.org/', 'png')).toBe('chart.png');
  });

  it('reduces hostile names to one safe component (A41)', () => {
    const cases: [string, string][] = [
      ['../../../../.bashrc', 'bashrc.png'],
      ['..\\..\\x.png', 'x.png'],
      ['/etc/x', 'x.png'],
      ['a\u0000.png', 'a.png'],
      ['CON.png', 'CON_.png'],
      ['lpt1', 'lpt1_.png'],
      ['x\u202Egnp.exe', 'xgnp.png'],
      ['evil.png\n.sh', 'evil.png.png'],
      ['..', 'image.png'],
      ['猫的照片.jpeg', '猫的照片.png'],
      ['a b  c?.png', 'a_b_c.png'],
    ];
    for (const [input, expected] of cases)
      expect(downloadName(input, url, 'png'), input).toBe(expected);
    const long = downloadName('x'.repeat(300), url, 'png');
    expect(long).toBe(`${'x'.repeat(80)}.png`);
    // 80 four-byte letters would be 320 bytes: cut to whole characters within 200 bytes.
    const wide = downloadName('\u{20000}'.repeat(80), url, 'png');
    expect(wide).toBe(`${'\u{20000}'.repeat(50)}.png`);
    expect(Buffer.byteLength(wide)).toBeLessThanOrEqual(255);
  });
});
