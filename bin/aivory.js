#!/usr/bin/env node
// The `aivory` command: runs the built CLI (out/main/cli.js). In a source checkout the build is
// made (or remade, when a source is newer) first, with a progress line on stderr.
import { ensureBuild } from './ensure-build.js';

try {
  ensureBuild();
} catch (error) {
  process.stderr.write(`aivory: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
await import('../out/main/cli.js');
