import { describe, expect, it } from 'vitest';
import {
  fileExtension,
  looksLikePlainText,
  openableFile,
  openableKindByName,
} from '../../../src/shared/openable-files';

const bytes = (...values: (number | string)[]): Uint8Array =>
  Buffer.concat(
    values.map((value) => (typeof value === 'string' ? Buffer.from(value) : Buffer.from([value]))),
  );

describe('openable files (the desktop "Open" rule)', () => {
  it('reads the extension the opener would see', () => {
    expect(fileExtension('plot.PNG')).toBe('.png');
    expect(fileExtension('/a/b/report.pdf')).toBe('.pdf');
    expect(fileExtension('C:\\x\\report.pdf')).toBe('.pdf');
    expect(fileExtension('.bashrc')).toBe('');
    expect(fileExtension('report.pdf.')).toBe('');
    expect(fileExtension('report.pdf ')).toBe('');
    expect(fileExtension('report.pdf:evil.bat')).toBe('');
    expect(fileExtension('noext')).toBe('');
  });

  it('never opens programs, scripts, markup or unknown types by name', () => {
    for (const name of [
      'a.bat',
      'a.cmd',
      'a.exe',
      'a.sh',
      'a.desktop',
      'a.html',
      'a.htm',
      'a.svg',
      'a.js',
      'a.py',
      'a.jar',
      'a.docm',
      'a.xlsm',
      'a.rtf',
      'a.lnk',
      'a.url',
      'a.zip',
      'a.png.exe',
      'a',
    ])
      expect(openableKindByName(name), name).toBeNull();
    expect(openableKindByName('plot.png')).toBe('image');
    expect(openableKindByName('report.PDF')).toBe('document');
    expect(openableKindByName('song.mp3')).toBe('media');
  });

  it('needs the bytes to agree with the extension', () => {
    const png = bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0);
    expect(openableFile('plot.png', png)).toBe('image');
    expect(openableFile('plot.png', bytes('<html>'))).toBeNull();
    expect(openableFile('photo.jpg', png)).toBeNull();
    expect(openableFile('report.pdf', bytes('%PDF-1.7'))).toBe('document');
    expect(openableFile('report.pdf', bytes('MZ'))).toBeNull();
    const zip = (entry: string): Uint8Array => {
      const header = Buffer.alloc(30);
      header.set([0x50, 0x4b, 0x03, 0x04]);
      header.writeUInt16LE(entry.length, 26);
      return Buffer.concat([header, Buffer.from(entry)]);
    };
    expect(openableFile('deck.pptx', zip('[Content_Types].xml'))).toBe('document');
    expect(openableFile('sheet.ods', zip('mimetype'))).toBe('document');
    expect(openableFile('deck.pptx', zip('META-INF/MANIFEST.MF'))).toBeNull();
    expect(openableFile('deck.pptx', bytes('not a zip'))).toBeNull();
    // Each format by its whole signature (the shared sniffer): a WebP is not a WAV, a GIF's
    // first four bytes are not a GIF, a TIFF is a TIFF.
    const webp = bytes('RIFF', 1, 2, 3, 4, 'WEBPVP8 ');
    expect(openableFile('sound.wav', webp)).toBeNull();
    expect(openableFile('sound.wav', bytes('RIFF', 1, 2, 3, 4, 'WAVEfmt '))).toBe('media');
    expect(openableFile('picture.webp', webp)).toBe('image');
    expect(openableFile('anim.gif', bytes('GIF8'))).toBeNull();
    expect(openableFile('scan.tif', bytes('II*', 0))).toBe('image');
  });

  it('plain text must not read as HTML, a script or a program', () => {
    expect(looksLikePlainText(bytes('a,b\n1,2\n'))).toBe(true);
    expect(looksLikePlainText(bytes('# Title\n\nSome *markdown*.'))).toBe(true);
    expect(looksLikePlainText(bytes(0xef, 0xbb, 0xbf, '  <html><body>'))).toBe(false);
    expect(looksLikePlainText(bytes('notes\n\n<script src=x></script>'))).toBe(false);
    expect(looksLikePlainText(bytes('#!/bin/sh\nrm -rf ~'))).toBe(false);
    expect(looksLikePlainText(bytes('MZ', 0x90, 0))).toBe(false);
    expect(looksLikePlainText(bytes(0x7f, 'ELF'))).toBe(false);
    expect(looksLikePlainText(bytes('a', 0, 'b'))).toBe(false);
    expect(openableFile('data.csv', bytes('a,b\n'))).toBe('document');
    expect(openableFile('page.txt', bytes('<!DOCTYPE html>'))).toBeNull();
  });

  it('opens mp3, m4a and mp4 only when their bytes are audio or video', () => {
    const html = bytes('<!DOCTYPE html><script>alert(1)</script>');
    for (const name of ['clip.mp4', 'song.m4a', 'song.mp3']) {
      expect(openableFile(name, html), name).toBeNull();
      expect(openableFile(name, bytes('')), name).toBeNull();
    }
    // MP3: an ID3v2 tag, or an MPEG-1 layer III frame header (128 kbit/s, 44.1 kHz).
    expect(openableFile('song.mp3', bytes('ID3', 4, 0, 0, 0, 0, 0x0a))).toBe('media');
    expect(openableFile('song.mp3', bytes(0xff, 0xfb, 0x90, 0x64))).toBe('media');
    // The UTF-16 byte-order mark an HTML page can start with looks like a frame sync.
    const utf16Html = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(' <html>', 'utf16le')]);
    expect(openableFile('song.mp3', utf16Html)).toBeNull();
    expect(openableFile('song.mp3', bytes('ID3', 9))).toBeNull();
    // MP4 / M4A: an `ftyp` box first, of a sane size.
    const ftyp = (brand: string): Uint8Array => bytes(0, 0, 0, 0x20, 'ftyp', brand, 0, 0, 2, 0);
    expect(openableFile('clip.mp4', ftyp('isom'))).toBe('media');
    expect(openableFile('song.m4a', ftyp('M4A '))).toBe('media');
    expect(
      openableFile('clip.mp4', bytes('<!--ftyp--><html><script>alert(1)</script>')),
    ).toBeNull();
    expect(openableFile('clip.mp4', bytes(0, 0, 0, 0x20, 'moov'))).toBeNull();
  });
});
