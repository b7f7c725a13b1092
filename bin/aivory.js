#!/usr/bin/env node
// The `aivory` command. Runs the TypeScript sources through tsx, so `npx aivory` works right
// after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import(new URL('../src/main/cli/main.ts', import.meta.url).href);
const { processIo } = await import(new URL('../src/main/cli/cli-io.ts', import.meta.url).href);
process.exitCode = await runCli(process.argv.slice(2), processIo());
