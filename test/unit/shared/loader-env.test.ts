/**
 * The one list of loader variables: the linkers, the runtimes' option and search-path
 * variables, shell start-up files, the package runners' sources, the commands git and Python run
 * — whatever the case of the name — and nothing an ordinary server needs.
 */
import { describe, expect, it } from 'vitest';
import { isLoaderVariable, loaderRefusal, loaderVariable } from '../../../src/shared/loader-env';

describe('loader variables', () => {
  it('names every way of loading code the issue found, and their families', () => {
    for (const name of [
      'NODE_OPTIONS',
      'LD_PRELOAD',
      'LD_LIBRARY_PATH',
      'LD_AUDIT',
      'DYLD_INSERT_LIBRARIES',
      'DYLD_LIBRARY_PATH',
      'PYTHONSTARTUP',
      'PYTHONPATH',
      'PERL5OPT',
      'PERL5LIB',
      'BASH_ENV',
      'ENV',
      'RUBYOPT',
      'JAVA_TOOL_OPTIONS',
      '_JAVA_OPTIONS',
      'NODE_PATH',
      'GCONV_PATH',
      'npm_config_registry',
      'NPM_CONFIG_NODE_OPTIONS',
      'UV_INDEX_URL',
      'PIP_INDEX_URL',
      'GIT_SSH_COMMAND',
      'GIT_CONFIG_COUNT',
      'BASH_FUNC_ls%%',
      'DOTNET_STARTUP_HOOKS',
      'CORECLR_PROFILER_PATH',
    ])
      expect(isLoaderVariable(name), name).toBe(true);
    // Windows ignores the case of a name: so does the list.
    expect(isLoaderVariable('node_options')).toBe(true);
    expect(isLoaderVariable('Ld_Preload')).toBe(true);
  });

  it('leaves alone what ordinary servers are given', () => {
    for (const name of [
      'PATH',
      'HOME',
      'GITHUB_TOKEN',
      'API_KEY',
      'MEMORY_FILE_PATH',
      'HTTPS_PROXY',
      'NODE_ENV',
      'NODE_EXTRA_CA_CERTS',
      'DEBUG',
      'LANG',
      'PYTHONUNBUFFERED',
      'UV_CACHE_DIR',
      'ENVIRONMENT',
      'LDAP_URL',
      '__proto__',
      'constructor',
    ])
      expect(isLoaderVariable(name), name).toBe(false);
  });

  it('says what each does and how to allow it', () => {
    expect(loaderVariable('NODE_OPTIONS')).toBe(
      'Node.js loads and runs the modules it names (--require, --import)',
    );
    expect(loaderVariable('LD_BIND_NOW')).toContain('dynamic linker');
    expect(loaderRefusal('PYTHONSTARTUP', 'memory')).toBe(
      'PYTHONSTARTUP is a loader variable (Python runs the file it names): it is refused unless you allow it for "memory" (--allow-loader-env PYTHONSTARTUP on aivory mcp add or edit, or in Settings → MCP the box beside it when you confirm the command).',
    );
  });
});
