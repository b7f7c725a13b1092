/**
 * vitest global setup for the e2e project: starts the one Chromium the run's test files share
 * (a launch costs seconds, a fresh context in a running browser a fraction of that) and provides
 * its endpoint; each `openBrowser()` (test/e2e/helpers/browser.ts) connects and opens its own
 * context. The teardown closes the browser.
 */
import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from './browser';

/** Runs once before the e2e files; returns the teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await launchChromiumServer();
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}
