/**
 * Loader variables: environment variables that make the dynamic linker, an interpreter, a shell
 * or a package runner load or run code the variable itself names. A local MCP server's `env`
 * holding one runs that code whatever its command line says (`NODE_OPTIONS=--import=data:…`
 * in front of `npx -y @modelcontextprotocol/server-memory`), so the user approving the command
 * line has not approved it. The one list, for every layer: the import plan and the settings
 * form call them out, a service stores them only when the user allowed them for it, and the
 * launcher refuses a child whose env holds one without that allowance.
 *
 * What is in: the linkers (every `LD_` / `DYLD_` variable, glibc's `GCONV_PATH`); the runtimes
 * MCP servers are written in — their option variables (`NODE_OPTIONS`, `JAVA_TOOL_OPTIONS`,
 * `PERL5OPT`, `RUBYOPT`…) and their module search paths (`NODE_PATH`, `PYTHONPATH`, `PERL5LIB`,
 * `CLASSPATH`…: on Windows a `\\host\share` path loads code from another machine); the shells'
 * start-up files (`BASH_ENV`, `ENV`, `ZDOTDIR`, exported `BASH_FUNC_` functions); the package
 * runners the configs start servers with (`npx`'s `NPM_CONFIG_*`, `uvx`'s and `pip`'s index
 * URLs: another registry serves other code under the same name); and the commands git and
 * Python run on their own (`GIT_SSH_COMMAND`, `GIT_CONFIG_*`, `PYTHONWARNINGS` with `BROWSER`).
 * Not in: `PATH` (set by many real configs for `npx` or `uvx`, and shown in clear in the plan),
 * proxies and CA certificates (they change where requests go, not what runs).
 */

/** Names matched exactly (case-insensitively: Windows ignores case), with what they do. */
const EXACT: ReadonlyMap<string, string> = new Map(
  Object.entries({
    GCONV_PATH: 'glibc loads character-conversion modules from it',
    NODE_OPTIONS: 'Node.js loads and runs the modules it names (--require, --import)',
    NODE_PATH: 'Node.js looks for modules in the folders it names',
    PYTHONSTARTUP: 'Python runs the file it names',
    PYTHONPATH: 'Python looks for modules in the folders it names first',
    PYTHONHOME: 'Python loads its standard library from it',
    PYTHONUSERBASE: 'Python runs the .pth files of the folder it names',
    PYTHONWARNINGS: 'Python imports the modules it names',
    PYTHONBREAKPOINT: 'Python imports and runs the function it names',
    PERL5OPT: 'Perl takes the options it holds (-M loads a module)',
    PERL5LIB: 'Perl looks for modules in the folders it names',
    PERLLIB: 'Perl looks for modules in the folders it names',
    PERL5DB: 'Perl runs the debugger code it holds',
    RUBYOPT: 'Ruby takes the options it holds (-r loads a file)',
    RUBYLIB: 'Ruby looks for files in the folders it names',
    JAVA_TOOL_OPTIONS: 'Java takes the options it holds (-javaagent loads code)',
    _JAVA_OPTIONS: 'Java takes the options it holds (-javaagent loads code)',
    JDK_JAVA_OPTIONS: 'Java takes the options it holds (-javaagent loads code)',
    CLASSPATH: 'Java looks for classes in the places it names',
    DOTNET_STARTUP_HOOKS: '.NET runs the assemblies it names at start',
    DOTNET_ADDITIONAL_DEPS: '.NET loads the assemblies it names',
    BASH_ENV: 'bash runs the file it names before a script',
    ENV: 'sh runs the file it names',
    ZDOTDIR: 'zsh runs the start-up files of the folder it names',
    BROWSER: 'programs opening a link run the command it names',
    GIT_SSH: 'git runs the command it names',
    GIT_SSH_COMMAND: 'git runs the command it holds',
    GIT_ASKPASS: 'git runs the command it names',
    GIT_EXEC_PATH: 'git runs its commands from the folder it names',
    GIT_EXTERNAL_DIFF: 'git runs the command it names',
    GIT_PROXY_COMMAND: 'git runs the command it names',
    GIT_TEMPLATE_DIR: 'git copies the hooks of the folder it names into new repositories',
    UV_INDEX_URL: 'uv and uvx install packages from the index it names',
    UV_EXTRA_INDEX_URL: 'uv and uvx install packages from the index it names',
    UV_DEFAULT_INDEX: 'uv and uvx install packages from the index it names',
    UV_INDEX: 'uv and uvx install packages from the indexes it names',
    UV_FIND_LINKS: 'uv and uvx install packages from the places it names',
    UV_CONFIG_FILE: 'uv and uvx take their settings from the file it names',
    PIP_INDEX_URL: 'pip installs packages from the index it names',
    PIP_EXTRA_INDEX_URL: 'pip installs packages from the index it names',
    PIP_FIND_LINKS: 'pip installs packages from the places it names',
    PIP_CONFIG_FILE: 'pip takes its settings from the file it names',
  }),
);

/** Whole families, by the start of the name. */
const PREFIXES: readonly (readonly [string, string])[] = [
  [
    'LD_',
    'the dynamic linker loads libraries into the program from it (LD_PRELOAD, LD_LIBRARY_PATH…)',
  ],
  ['DYLD_', "macOS's dynamic linker loads libraries into the program from it"],
  [
    'NPM_CONFIG_',
    'npm and npx take settings from it (another registry, node options, script shell)',
  ],
  ['BASH_FUNC_', 'bash defines the function it holds in every script'],
  ['GIT_CONFIG', 'git takes settings from it (core.sshCommand, core.fsmonitor run commands)'],
  ['CORECLR_PROFILER', '.NET loads the profiler library it names'],
  ['COR_PROFILER', '.NET loads the profiler library it names'],
];

/**
 * What the loader variable `name` makes a program do ("Node.js loads and runs the modules it
 * names (--require, --import)"), or null when `name` is not one.
 */
export function loaderVariable(name: string): string | null {
  const upper = name.toUpperCase();
  const exact = EXACT.get(upper);
  if (exact !== undefined) return exact;
  return PREFIXES.find(([prefix]) => upper.startsWith(prefix))?.[1] ?? null;
}

/** True when `name` is a loader variable (see the file comment). */
export function isLoaderVariable(name: string): boolean {
  return loaderVariable(name) !== null;
}

/**
 * The refusal of a loader variable the user did not allow for the service, with the two ways to
 * allow it.
 */
export function loaderRefusal(name: string, service?: string): string {
  const what = loaderVariable(name) ?? 'it makes a program load extra code';
  const whom = service === undefined ? 'this service' : `"${service}"`;
  return `${name} is a loader variable (${what}): it is refused unless you allow it for ${whom} (--allow-loader-env ${name} on aivory mcp add or edit, or in Settings → MCP the box beside it when you confirm the command).`;
}
