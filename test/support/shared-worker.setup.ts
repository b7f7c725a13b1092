/**
 * For the projects whose files share a worker process (`isolate: false` in vitest.config.ts): a
 * file must leave the process as it found it, or the next file in that worker would run in what
 * it left. After each file this checks the environment, the working directory and the timers,
 * puts them back and fails the file that changed them, naming what it changed.
 */
import { afterAll, beforeAll, expect, vi } from 'vitest';

let env: Record<string, string | undefined> = {};
let cwd = '';

beforeAll(() => {
  env = { ...process.env };
  cwd = process.cwd();
});

afterAll(() => {
  const changed = [...new Set([...Object.keys(env), ...Object.keys(process.env)])].filter(
    (key) => env[key] !== process.env[key],
  );
  for (const key of changed) {
    if (env[key] === undefined) delete process.env[key];
    else process.env[key] = env[key];
  }
  const movedFrom = process.cwd() === cwd ? null : process.cwd();
  if (movedFrom !== null) process.chdir(cwd);
  const fakeTimers = vi.isFakeTimers();
  if (fakeTimers) vi.useRealTimers();
  expect(
    { changedEnvironment: changed, movedFrom, fakeTimers },
    'a file of a shared worker restores what it changes in the process (its own afterEach/afterAll)',
  ).toEqual({ changedEnvironment: [], movedFrom: null, fakeTimers: false });
});
