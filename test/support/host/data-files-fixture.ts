/**
 * A data directory for the file-confinement tests: an artifact PNG, an uploaded CSV, files that
 * must never show inline (a fake PNG, an SVG, HTML), a secret beside the folders, and symlinks
 * out of and into them.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataFileRoots } from '../../../src/main/host/files/data-files';

/** The first bytes of a PNG, enough for the magic-number check. */
export const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

/** A data directory with an artifact, an upload, a secret beside them and a few traps. */
export function makeDataDir(): { home: string; roots: string[]; outside: string } {
  const home = mkdtempSync(join(tmpdir(), 'aivory-files-'));
  const outside = mkdtempSync(join(tmpdir(), 'aivory-outside-'));
  const roots = dataFileRoots(home, {});
  mkdirSync(join(home, 'artifacts', 'conv_1'), { recursive: true });
  mkdirSync(join(home, 'uploads', 'conv_1'), { recursive: true });
  writeFileSync(join(home, 'artifacts', 'conv_1', 'plot.png'), PNG_BYTES);
  writeFileSync(join(home, 'artifacts', 'conv_1', 'fake.png'), '<html>not a png</html>');
  writeFileSync(join(home, 'artifacts', 'conv_1', 'drawing.svg'), '<svg onload="alert(1)"/>');
  writeFileSync(join(home, 'artifacts', 'conv_1', 'page.html'), '<script>alert(1)</script>');
  writeFileSync(join(home, 'uploads', 'conv_1', 'data.csv'), 'a,b\n1,2\n');
  writeFileSync(join(home, 'secrets.json'), '{"key":"sk-secret"}');
  writeFileSync(join(outside, 'elsewhere.txt'), 'outside');
  symlinkSync(join(home, 'secrets.json'), join(home, 'artifacts', 'conv_1', 'link-out.png'));
  symlinkSync(outside, join(home, 'uploads', 'conv_1', 'dir-out'));
  symlinkSync(join(home, 'artifacts', 'conv_1', 'plot.png'), join(outside, 'link-in.png'));
  return { home, roots, outside };
}
