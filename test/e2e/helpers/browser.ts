/**
 * Debian's Chromium driven by playwright-core (no browser download): a persistent context in a
 * temp profile, with the flags these machines need; optionally inside a lab network namespace
 * (a wrapper script that execs `ip netns exec NAME chromium …`, which keeps playwright's pipe
 * descriptors), to reach an `aivory serve` listening on that namespace's loopback.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', '..', 'docs', 'screenshots');

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export interface BrowserPlace {
  /** Run Chromium inside this network namespace. */
  namespace?: string;
}

/** Opens Chromium with a browser locale (`en-US` unless given). */
export async function openBrowser(
  locale = 'en-US',
  place: BrowserPlace = {},
): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium fonts-noto-cjk`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'aivory-chromium-'));
  const wrapperDirectory =
    place.namespace === undefined ? null : mkdtempSync(join(tmpdir(), 'aivory-chromium-netns-'));
  let executablePath = CHROMIUM_PATH;
  if (wrapperDirectory !== null) {
    executablePath = join(wrapperDirectory, 'chromium');
    writeFileSync(
      executablePath,
      `#!/bin/sh\nexec ip netns exec '${place.namespace}' '${CHROMIUM_PATH}' "$@"\n`,
      { mode: 0o755 },
    );
  }
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_FLAGS,
    locale,
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      if (wrapperDirectory !== null) rmSync(wrapperDirectory, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of the page under docs/screenshots/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}
