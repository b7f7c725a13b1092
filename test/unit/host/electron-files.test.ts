import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appFilesResponse, isAppFilesUrl } from '../../../src/main/electron/data-file-protocol';
import { makeDataDir, PNG_BYTES } from '../../support/host/data-files-fixture';

describe('Electron shell: app://aivory/files', () => {
  let data: ReturnType<typeof makeDataDir>;
  beforeEach(() => {
    data = makeDataDir();
  });
  afterEach(() => {
    rmSync(data.home, { recursive: true, force: true });
    rmSync(data.outside, { recursive: true, force: true });
  });
  const url = (path: string, extra = ''): string =>
    `app://aivory/files?path=${encodeURIComponent(path)}${extra}`;

  it('only the app host’s /files path is a data-file request', () => {
    expect(isAppFilesUrl('app://aivory/files?path=/x')).toBe(true);
    expect(isAppFilesUrl('app://aivory/index.html')).toBe(false);
    expect(isAppFilesUrl('app://other/files?path=/x')).toBe(false);
    expect(isAppFilesUrl('https://aivory/files?path=/x')).toBe(false);
  });

  it('serves an artifact image inline and refuses everything outside the folders', async () => {
    const plot = join(data.home, 'artifacts', 'conv_1', 'plot.png');
    const response = await appFilesResponse(url(plot), data.roots);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
    const svg = await appFilesResponse(
      url(join(data.home, 'artifacts', 'conv_1', 'drawing.svg')),
      data.roots,
    );
    expect(svg.headers.get('content-disposition')).toMatch(/^attachment;/);
    await svg.body?.cancel();
    for (const path of [
      `${data.home}/artifacts/../secrets.json`,
      join(data.home, 'artifacts', 'conv_1', 'link-out.png'),
      '/etc/passwd',
      join(data.home, 'artifacts', 'conv_1', 'missing.png'),
    ]) {
      expect((await appFilesResponse(url(path), data.roots)).status, path).toBe(404);
    }
  });
});
