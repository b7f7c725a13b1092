/** A native module built for another Node.js reads as a fix to run, not "an internal error". */
import { describe, expect, it } from 'vitest';
import { nativeModuleError } from '../../../src/main/cli/cli-errors';

describe('nativeModuleError', () => {
  it('names the module, the versions and the rebuild command', () => {
    const thrown = Object.assign(
      new Error(
        "The module '/home/ada/aivory/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 137. Please try re-compiling or re-installing",
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const error = nativeModuleError(thrown);
    expect(error?.code).toBe('config');
    expect(error?.message).toBe(
      `better-sqlite3 could not be loaded (built for another Node.js: NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 137). Rebuild it for this Node.js (${process.version}): npm rebuild better-sqlite3`,
    );
  });

  it('leaves every other error alone', () => {
    expect(nativeModuleError(new Error('disk full'))).toBeNull();
    expect(nativeModuleError(null)).toBeNull();
  });
});
