/**
 * The `aivory` command's entry in the build (`out/main/cli.js`, started by `bin/aivory.js`): runs
 * the command line against this process.
 */
import { processIo } from './cli-io';
import { runCli } from './main';

process.exitCode = await runCli(process.argv.slice(2), processIo());
