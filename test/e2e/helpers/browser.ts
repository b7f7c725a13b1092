/**
 * Debian's Chromium driven by playwright-core (no browser download), with the flags these
 * machines need. One Chromium serves a whole e2e run: the project's global setup
 * (test/e2e/helpers/chromium-server.global-setup.ts) starts it with `chromium.launchServer` and
 * provides its WebSocket endpoint; each `openBrowser()` connects to it and opens a fresh browser
 * context (no cookies, storage or permissions shared with any other call) and one page in it.
 *
 * Outside that run (the UI benches, plain node) and inside a lab network namespace,
 * `openBrowser()` launches a Chromium of its own with a persistent context in a temp profile;
 * for a namespace through a wrapper script that execs `ip netns exec NAME chromium …` (which keeps
 * playwright's pipe descriptors), to reach an `aivory serve` listening on that namespace's
 * loopback.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, BrowserServer, Download, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's endpoint, for `chromium.connect` (the e2e global setup). */
    chromiumWsEndpoint: string;
  }
}

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', '..', 'docs', 'screenshots');

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const VIEWPORT = { width: 1280, height: 800 };
const DEFAULT_TIMEOUT_MS = 15_000;

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export interface BrowserPlace {
  /** Run Chromium inside this network namespace. */
  namespace?: string;
}

function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium fonts-noto-cjk`);
  }
}

/** Starts the Chromium the e2e run shares (the global setup; `close()` it in the teardown). */
export async function launchChromiumServer(): Promise<BrowserServer> {
  requireChromium();
  return chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}

/**
 * Opens a fresh context with a browser locale (`en-US` unless given) and a page in it: in the
 * run's shared Chromium, or in a Chromium of its own (inside `place.namespace` when given).
 */
export async function openBrowser(
  locale = 'en-US',
  place: BrowserPlace = {},
): Promise<TestBrowser> {
  const endpoint = place.namespace === undefined ? await sharedEndpoint() : undefined;
  if (endpoint === undefined) return launchOwn(locale, place.namespace);
  // One connection per call: closing it also drops whatever the caller left open in the shared
  // browser, and connecting costs little next to the context.
  const browser = await chromium.connect(endpoint);
  try {
    const context = await browser.newContext({ locale, viewport: VIEWPORT });
    const page = await context.newPage();
    page.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
    return {
      context,
      page,
      close: async () => {
        await context.close();
        await browser.close();
      },
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** The shared Chromium's endpoint inside a vitest run that provides one. */
async function sharedEndpoint(): Promise<string | undefined> {
  if (process.env.VITEST === undefined) return undefined;
  const { inject } = await import('vitest');
  return inject('chromiumWsEndpoint');
}

/** A Chromium of its own: a persistent context in a temp profile, optionally in a namespace. */
async function launchOwn(locale: string, namespace: string | undefined): Promise<TestBrowser> {
  requireChromium();
  const profile = mkdtempSync(join(tmpdir(), 'aivory-chromium-'));
  const wrapperDirectory =
    namespace === undefined ? null : mkdtempSync(join(tmpdir(), 'aivory-chromium-netns-'));
  let executablePath = CHROMIUM_PATH;
  if (wrapperDirectory !== null) {
    executablePath = join(wrapperDirectory, 'chromium');
    writeFileSync(
      executablePath,
      `#!/bin/sh\nexec ip netns exec '${namespace}' '${CHROMIUM_PATH}' "$@"\n`,
      { mode: 0o755 },
    );
  }
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_FLAGS,
    locale,
    viewport: VIEWPORT,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
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

/**
 * The bytes of a finished download. Read through its stream: `download.path()` is refused over a
 * `chromium.connect` connection (the file lives on the browser's side).
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Saves a screenshot of the page under docs/screenshots/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}
