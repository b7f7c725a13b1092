/**
 * `aivory serve --open` never puts the access token on a command line (issue 11, finding 5):
 * the opener gets the path of a private page that redirects to the tokened URL.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareBrowserOpen } from '../../../src/main/cli/serve-command';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('serve --open', () => {
  it('hands the opener a private redirect page, never the token', () => {
    const base = mkdtempSync(join(tmpdir(), 'aivory-open-test-'));
    folders.push(base);
    const url = 'http://127.0.0.1:5217/?token=SECRET_token-123"><script>';
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const opened = prepareBrowserOpen(url, platform, base);
      expect([opened.command, ...opened.args].join(' ')).not.toContain('SECRET');
      expect(opened.args.at(-1)).toBe(opened.page);
      expect(statSync(opened.page).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(opened.page)).mode & 0o777).toBe(0o700);
      const html = readFileSync(opened.page, 'utf8');
      expect(html).toContain('url=http://127.0.0.1:5217/?token=SECRET_token-123&quot;>&lt;script>');
      expect(html).not.toContain('<script>');
      opened.cleanUp();
      expect(existsSync(opened.page)).toBe(false);
    }
  });
});
