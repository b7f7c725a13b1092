import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  contentDisposition,
  dataFileHeaders,
  dataFileRoots,
  resolveDataFile,
} from '../../../src/main/host/files/data-files';
import { makeDataDir } from '../../support/host/data-files-fixture';

describe('data files: which paths the UI may open', () => {
  let data: ReturnType<typeof makeDataDir>;
  beforeEach(() => {
    data = makeDataDir();
  });
  afterEach(() => {
    rmSync(data.home, { recursive: true, force: true });
    rmSync(data.outside, { recursive: true, force: true });
  });

  it('serves regular files under artifacts/ and uploads/', async () => {
    const plot = join(data.home, 'artifacts', 'conv_1', 'plot.png');
    expect(await resolveDataFile(data.roots, plot)).toMatch(/plot\.png$/);
    const csv = join(data.home, 'uploads', 'conv_1', 'data.csv');
    expect(await resolveDataFile(data.roots, csv)).toMatch(/data\.csv$/);
  });

  it('refuses traversal, symlinks out, other absolute paths, relative and missing paths', async () => {
    const refused = [
      join(data.home, 'artifacts', 'conv_1', '..', '..', 'secrets.json'),
      `${data.home}/artifacts/../secrets.json`,
      join(data.home, 'secrets.json'),
      join(data.home, 'artifacts', 'conv_1', 'link-out.png'),
      join(data.home, 'uploads', 'conv_1', 'dir-out', 'elsewhere.txt'),
      join(data.outside, 'link-in.png'),
      join(data.outside, 'elsewhere.txt'),
      '/etc/passwd',
      'artifacts/conv_1/plot.png',
      '../secrets.json',
      join(data.home, 'artifacts', 'conv_1', 'missing.png'),
      join(data.home, 'artifacts', 'conv_1'),
      join(data.home, 'artifacts'),
      `${join(data.home, 'artifacts', 'conv_1', 'plot.png')}\0.txt`,
      '',
    ];
    for (const path of refused) expect(await resolveDataFile(data.roots, path), path).toBeNull();
  });

  it('AIVORY_ARTIFACTS_DIR moves the artifacts root', () => {
    expect(dataFileRoots('/data', { AIVORY_ARTIFACTS_DIR: '/elsewhere/art' })).toEqual([
      '/elsewhere/art',
      '/data/uploads',
      '/data/exports',
    ]);
  });

  it('only raster images whose bytes match are inline; SVG, HTML and fakes are attachments', async () => {
    const file = (name: string) => join(data.home, 'artifacts', 'conv_1', name);
    const png = await dataFileHeaders(file('plot.png'), 12, false);
    expect(png.inline).toBe(true);
    expect(png.headers).toMatchObject({
      'Content-Type': 'image/png',
      'Content-Disposition': 'inline',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
    expect((await dataFileHeaders(file('plot.png'), 12, true)).headers['Content-Disposition']).toBe(
      'attachment; filename="plot.png"; filename*=UTF-8\'\'plot.png',
    );
    for (const name of ['fake.png', 'drawing.svg', 'page.html']) {
      const headers = await dataFileHeaders(file(name), 1, false);
      expect(headers.inline, name).toBe(false);
      expect(headers.headers['Content-Disposition'], name).toMatch(/^attachment;/);
    }
    expect((await dataFileHeaders(file('drawing.svg'), 1, false)).contentType).toBe(
      'image/svg+xml',
    );
    expect((await dataFileHeaders(file('page.html'), 1, false)).contentType).toBe(
      'text/html; charset=utf-8',
    );
  });

  it('attachment names are quoted safely, with the UTF-8 name alongside', () => {
    expect(contentDisposition('销量 "图".png', false)).toBe(
      'attachment; filename="__ ___.png"; filename*=UTF-8\'\'%E9%94%80%E9%87%8F%20%22%E5%9B%BE%22.png',
    );
    expect(contentDisposition('a;b%c\r\n.txt', false)).not.toMatch(/[\r\n]/);
  });
});
