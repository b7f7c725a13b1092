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
});
