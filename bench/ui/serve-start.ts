/**
 * `aivory serve` start → composer usable in Chromium, against a bare Node static server that serves
 * one page with a text box, started and opened the same way in the same browser (issue 10 goal:
 * ≤ 3×). Each run starts a fresh process on a configured data directory (a model set through the
 * environment, so the chat opens, not the setup screen), loads the printed URL and waits until the
 * composer's text box is enabled. Runs are interleaved so noise hits both sides alike.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { AIVORY_BIN, cliEnv } from '../../test/support/run-cli';
import { median } from '../statistics';

const RUNS = 5;
export const SERVE_START_GOAL = 3;

/** A static server in one `node -e`: the same shape of page (one enabled text box). */
const BARE_SERVER = `
const http = require('node:http');
const page = '<!doctype html><meta charset="utf-8"><title>bare</title><textarea data-testid="composer-input"></textarea>';
const server = http.createServer((request, response) => {
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
});
server.listen(0, '127.0.0.1', () => console.log('running at http://127.0.0.1:' + server.address().port + '/'));
`;

/** Spawns, waits for the printed URL, opens it and waits for an enabled composer. */
async function timeStart(page: Page, start: () => ChildProcess): Promise<number> {
  const startedAt = performance.now();
  const child = start();
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        const match = /https?:\/\/127\.0\.0\.1:\d+\/\S*/.exec(output);
        if (match) resolve(match[0]);
      });
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
    await page.goto(url);
    await page.waitForSelector('[data-testid="composer-input"]:not([disabled])');
    return performance.now() - startedAt;
  } finally {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
}

/** The medians of both sides, in milliseconds. */
export async function measureServeStart(
  page: Page,
  modelEnv: Record<string, string>,
): Promise<{ serve: number; bare: number; runs: number }> {
  const serveRuns: number[] = [];
  const bareRuns: number[] = [];
  const homes: string[] = [];
  try {
    for (let run = 0; run <= RUNS; run += 1) {
      const home = mkdtempSync(join(tmpdir(), 'aivory-serve-start-'));
      homes.push(home);
      const env = cliEnv(home, modelEnv);
      const bare = await timeStart(page, () =>
        spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'pipe'] }),
      );
      const serve = await timeStart(page, () =>
        spawn(process.execPath, [AIVORY_BIN, 'serve', '--port', '0'], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      // The first round warms the page cache and is not counted.
      if (run === 0) continue;
      bareRuns.push(bare);
      serveRuns.push(serve);
    }
  } finally {
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  }
  return { serve: median(serveRuns), bare: median(bareRuns), runs: RUNS };
}
