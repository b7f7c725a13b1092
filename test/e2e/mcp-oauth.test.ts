/**
 * OAuth sign-in from the service card in Chromium, against the local OAuth lab (an MCP server
 * that answers 401 without a token, its protected resource metadata and an authorization server;
 * test/support/oauth-lab.ts). `aivory serve` runs with `$BROWSER` set to the redirect follower
 * (test/support/oauth-browser.ts), which plays the user approving in their browser: the sign-in
 * page's redirect lands on the app's loopback listener.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthLab } from '../support/oauth-lab';
import { startOAuthLab } from '../support/oauth-lab';
import { useAppFixture } from './helpers/app-fixture';
import { screenshot } from './helpers/browser';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BROWSER = `${join(root, 'node_modules', '.bin', 'tsx')} ${join(root, 'test', 'support', 'oauth-browser.ts')}`;

describe('e2e: OAuth sign-in of an MCP service', () => {
  const app = useAppFixture([{ content: 'unused' }], { env: { BROWSER } });
  let lab: OAuthLab;

  beforeAll(async () => {
    lab = await startOAuthLab();
  });
  afterAll(async () => {
    await lab?.close();
  });

  it('Sync signs in through the browser; the card shows who, Sign out forgets it, Sign in again works', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-nav-mcp').click();
    await page.getByTestId('settings-page-mcp').waitFor();
    await page.getByTestId('mcp-new').click();
    await page.getByTestId('mcp-form-name').fill('lab');
    await page.getByTestId('mcp-form-description').fill('A server that wants an OAuth sign-in.');
    await page.getByTestId('mcp-form-url').fill(lab.url);
    await page.getByTestId('mcp-form-save').click();

    const card = page.getByTestId('mcp-service').and(page.locator('[data-name="lab"]'));
    await card.waitFor();
    const signIn = card.getByTestId('mcp-sign-in');
    expect(await signIn.getAttribute('data-signed-in')).toBe('false');
    expect(lab.count('/token')).toBe(0);

    // Sync meets the 401, signs in (the "browser" approves), and lists the tools.
    await card.getByTestId('mcp-sync').click();
    await expect
      .poll(() => signIn.getAttribute('data-signed-in'), { timeout: 30_000 })
      .toBe('true');
    await expect
      .poll(() => card.getByTestId('mcp-sync-info').textContent(), { timeout: 30_000 })
      .toMatch(/found 1 ·/);
    expect(await card.getByTestId('mcp-sign-in-status').textContent()).toContain(
      `Signed in at ${lab.origin}`,
    );
    expect(lab.grants).toContain('authorization_code');
    // The token never reaches the page.
    const token = lab.accessTokens.at(-1)?.token ?? 'missing';
    expect(await page.content()).not.toContain(token);
    await screenshot(page, 'mcp-sign-in');

    await card.getByTestId('mcp-sign-out-button').click();
    await expect.poll(() => signIn.getAttribute('data-signed-in')).toBe('false');

    const grantsBefore = lab.grants.filter((grant) => grant === 'authorization_code').length;
    await card.getByTestId('mcp-sign-in-button').click();
    await expect
      .poll(() => signIn.getAttribute('data-signed-in'), { timeout: 30_000 })
      .toBe('true');
    expect(lab.grants.filter((grant) => grant === 'authorization_code').length).toBe(
      grantsBefore + 1,
    );
    await expect
      .poll(() => card.getByTestId('mcp-test-state').getAttribute('data-state'))
      .toBe('connected');
  }, 120_000);

  it('a sign-in through another local port asks: "Allow sign-in through …" stores the trust and signs in', async () => {
    // A local MCP server whose authorization server runs on another port of 127.0.0.1.
    const auth = await startOAuthLab();
    const local = await startOAuthLab({ authorizationServers: [auth.origin], tokenIssuer: auth });
    try {
      const { page } = app().browser;
      await page.goto(app().serve.url);
      await page.getByTestId('settings-open').click();
      await page.getByTestId('settings-nav-mcp').click();
      await page.getByTestId('settings-page-mcp').waitFor();
      await page.getByTestId('mcp-new').click();
      await page.getByTestId('mcp-form-name').fill('keycloaked');
      await page.getByTestId('mcp-form-description').fill('Signs in at a local server.');
      await page.getByTestId('mcp-form-url').fill(local.url);
      await page.getByTestId('mcp-form-save').click();
      const card = page.getByTestId('mcp-service').and(page.locator('[data-name="keycloaked"]'));
      await card.waitFor();

      await card.getByTestId('mcp-sync').click();
      const refused = card.getByTestId('mcp-sign-in-refused');
      await refused.waitFor({ timeout: 30_000 });
      const text = (await refused.textContent()) ?? '';
      expect(text).toContain(auth.origin);
      expect(text).toContain(local.origin);
      expect(auth.counts.size).toBe(0);
      // The prompt says it once: not again as the test result.
      expect(await card.getByTestId('mcp-test-message').count()).toBe(0);
      expect(await card.getByTestId('mcp-sign-in').getAttribute('data-signed-in')).toBe('false');
      const allow = card.getByTestId('mcp-trust-origin');
      expect(await allow.textContent()).toBe(`Allow sign-in through ${auth.origin}`);
      await screenshot(page, 'mcp-sign-in-trust');

      await allow.click();
      await expect
        .poll(() => card.getByTestId('mcp-sign-in').getAttribute('data-signed-in'), {
          timeout: 30_000,
        })
        .toBe('true');
      await expect
        .poll(() => card.getByTestId('mcp-test-state').getAttribute('data-state'))
        .toBe('connected');
      expect(auth.grants).toEqual(['authorization_code']);
      expect(local.grants).toEqual([]);
      expect(await card.getByTestId('mcp-sign-in-refused').count()).toBe(0);
      expect(await card.getByTestId('mcp-trusted-origins').textContent()).toContain(auth.origin);
      expect(await card.getByTestId('mcp-sign-in-status').textContent()).toContain(
        `Signed in at ${auth.origin}`,
      );
    } finally {
      await local.close();
      await auth.close();
    }
  }, 120_000);

  it('a resource that moved its sign-in asks: "Sign in at …" binds it there, nothing sent before', async () => {
    // A local MCP server signed in at its own authorization server, which then names another one
    // (another port of 127.0.0.1: the sign-in there also needs the trust of the card above).
    const moved = await startOAuthLab();
    const second = await startOAuthLab();
    try {
      const { page } = app().browser;
      await page.goto(app().serve.url);
      await page.getByTestId('settings-open').click();
      await page.getByTestId('settings-nav-mcp').click();
      await page.getByTestId('settings-page-mcp').waitFor();
      await page.getByTestId('mcp-new').click();
      await page.getByTestId('mcp-form-name').fill('mover');
      await page.getByTestId('mcp-form-description').fill('Moves its sign-in.');
      await page.getByTestId('mcp-form-url').fill(moved.url);
      await page.getByTestId('mcp-form-save').click();
      const card = page.getByTestId('mcp-service').and(page.locator('[data-name="mover"]'));
      await card.waitFor();
      await card.getByTestId('mcp-sync').click();
      await expect
        .poll(() => card.getByTestId('mcp-sign-in').getAttribute('data-signed-in'), {
          timeout: 30_000,
        })
        .toBe('true');

      moved.knobs.authorizationServers = [second.origin];
      moved.knobs.ownTokens = false;
      moved.knobs.tokenIssuer = second;
      await card.getByTestId('mcp-test').click();
      const prompt = card.getByTestId('mcp-sign-in-move');
      await prompt.waitFor({ timeout: 30_000 });
      const text = (await prompt.textContent()) ?? '';
      expect(text).toContain(
        `from the authorization server ${moved.origin} to another one, ${second.origin}`,
      );
      expect(second.counts.size).toBe(0);
      // The prompt says it once: not again as the test result.
      expect(await card.getByTestId('mcp-test-message').count()).toBe(0);
      const approve = card.getByTestId('mcp-approve-auth-server');
      expect(await approve.textContent()).toBe(`Sign in at ${second.origin}`);

      await approve.click();
      // Another port of the service's host: the card asks for that trust next.
      await card.getByTestId('mcp-trust-origin').click({ timeout: 30_000 });
      await expect
        .poll(() => card.getByTestId('mcp-sign-in-status').textContent(), { timeout: 30_000 })
        .toContain(`Signed in at ${second.origin}`);
      expect(second.grants).toEqual(['authorization_code']);
      expect(await card.getByTestId('mcp-sign-in-move').count()).toBe(0);
    } finally {
      await moved.close();
      await second.close();
    }
  }, 120_000);
});
