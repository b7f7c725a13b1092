/**
 * The three parts most e2e files start before their tests and stop after them: the scripted
 * OpenAI-compatible model, the real `aivory serve` and Chromium. By default serve gets the model
 * through AIVORY_* in prompt mode (the chat opens at once); `configured: false` leaves it without a
 * model (the first-run setup screen shows).
 */
import { afterAll, beforeAll } from 'vitest';
import type {
  Script,
  ScriptedLlmServer,
  ScriptedLlmServerOptions,
} from '../../support/scripted-llm-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import type { TestBrowser } from './browser';
import { openBrowser } from './browser';
import type { ServeProcess } from './serve-process';
import { startServe } from './serve-process';

export interface AppFixture {
  llm: ScriptedLlmServer;
  serve: ServeProcess;
  browser: TestBrowser;
}

/** Starts the parts in `beforeAll`, stops them in `afterAll`; the result reads them in a test. */
export function useAppFixture(
  script: Script,
  options: {
    configured?: boolean;
    llm?: ScriptedLlmServerOptions;
    /** More environment for `aivory serve` (e.g. `BROWSER`). */
    env?: Record<string, string>;
  } = {},
): () => AppFixture {
  let parts: Partial<AppFixture> = {};
  beforeAll(async () => {
    const llm = await startScriptedLlmServer(script, options.llm ?? {});
    parts = { llm };
    parts.serve = await startServe({
      ...(options.configured === false
        ? {}
        : {
            AIVORY_BASE_URL: llm.baseUrl,
            AIVORY_MODEL: 'scripted-model',
            AIVORY_TOOL_MODE: 'prompt',
          }),
      ...options.env,
    });
    parts.browser = await openBrowser();
  }, 60_000);
  afterAll(async () => {
    await parts.browser?.close();
    await parts.serve?.stop();
    await parts.llm?.close();
  });
  return () => {
    const { llm, serve, browser } = parts;
    if (!llm || !serve || !browser) throw new Error('the app fixture did not start');
    return { llm, serve, browser };
  };
}
