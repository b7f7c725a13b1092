/**
 * Which commands open a sign-in page: `$BROWSER` (colon-separated, `%s` for the URL, else the URL
 * last, split on spaces with no shell) wins; otherwise the platform's opener. The URL is always
 * one argument of its own, whatever it contains.
 */
import { describe, expect, it } from 'vitest';
import { browserCommands } from '../../../../src/main/adapters/oauth/open-browser';

const URL_TEXT = 'https://auth.example.com/authorize?client_id=a&state=b;c|d$(e)`f`';

describe('browserCommands', () => {
  it('uses the platform opener without $BROWSER', () => {
    expect(browserCommands(URL_TEXT, {}, 'linux')).toEqual([['xdg-open', URL_TEXT]]);
    expect(browserCommands(URL_TEXT, {}, 'freebsd')).toEqual([['xdg-open', URL_TEXT]]);
    expect(browserCommands(URL_TEXT, {}, 'darwin')).toEqual([['open', URL_TEXT]]);
    // cmd's start needs an empty title first and & escaped (cmd would split the line there).
    expect(browserCommands('https://a.example/x?a=1&b=2', {}, 'win32')).toEqual([
      ['cmd', '/c', 'start', '""', 'https://a.example/x?a=1^&b=2'],
    ]);
  });

  it('treats an empty or blank $BROWSER as unset', () => {
    expect(browserCommands(URL_TEXT, { BROWSER: '' }, 'linux')).toEqual([['xdg-open', URL_TEXT]]);
    expect(browserCommands(URL_TEXT, { BROWSER: '   ' }, 'darwin')).toEqual([['open', URL_TEXT]]);
  });

  it('appends the URL as its own argument, never through a shell', () => {
    expect(browserCommands(URL_TEXT, { BROWSER: 'firefox' }, 'linux')).toEqual([
      ['firefox', URL_TEXT],
    ]);
    expect(browserCommands(URL_TEXT, { BROWSER: '  firefox   --new-window ' }, 'linux')).toEqual([
      ['firefox', '--new-window', URL_TEXT],
    ]);
    // Shell syntax in $BROWSER is only words: nothing is interpreted.
    expect(browserCommands(URL_TEXT, { BROWSER: 'echo $(id) >x' }, 'linux')).toEqual([
      ['echo', '$(id)', '>x', URL_TEXT],
    ]);
  });

  it('puts the URL where %s is, in every word that has it, and then not at the end', () => {
    expect(browserCommands(URL_TEXT, { BROWSER: 'chromium --app=%s' }, 'linux')).toEqual([
      ['chromium', `--app=${URL_TEXT}`],
    ]);
    expect(browserCommands('https://a.example/', { BROWSER: 'b %s %s' }, 'linux')).toEqual([
      ['b', 'https://a.example/', 'https://a.example/'],
    ]);
    // A URL containing "%s" itself is not expanded again.
    expect(browserCommands('https://a.example/%s', { BROWSER: 'b %s' }, 'linux')).toEqual([
      ['b', 'https://a.example/%s'],
    ]);
  });

  it('tries each entry of a colon-separated list in order, skipping empty ones', () => {
    expect(browserCommands(URL_TEXT, { BROWSER: 'w3m:: firefox -P x :lynx %s:' }, 'linux')).toEqual(
      [
        ['w3m', URL_TEXT],
        ['firefox', '-P', 'x', URL_TEXT],
        ['lynx', URL_TEXT],
      ],
    );
    expect(browserCommands(URL_TEXT, { BROWSER: 'open -a Safari:open' }, 'darwin')).toEqual([
      ['open', '-a', 'Safari', URL_TEXT],
      ['open', URL_TEXT],
    ]);
  });

  it('does not split $BROWSER on colons on Windows (C:\\ paths)', () => {
    expect(
      browserCommands('https://a.example/', { BROWSER: 'C:\\Tools\\browser.exe' }, 'win32'),
    ).toEqual([['C:\\Tools\\browser.exe', 'https://a.example/']]);
  });

  it('keeps a Windows path with spaces whole, quoted or not, and splits the list on ;', () => {
    const url = 'https://a.example/';
    const firefox = 'C:\\Program Files\\Mozilla Firefox\\firefox.exe';
    expect(browserCommands(url, { BROWSER: firefox }, 'win32')).toEqual([[firefox, url]]);
    expect(
      browserCommands(url, { BROWSER: `"${firefox}" -private-window %s;msedge.exe` }, 'win32'),
    ).toEqual([
      [firefox, '-private-window', url],
      ['msedge.exe', url],
    ]);
  });

  it('honours quotes on Unix too, and an empty quoted word stays a word', () => {
    const url = 'https://a.example/';
    expect(
      browserCommands(url, { BROWSER: "'/opt/My Browser/run' --flag '' %s" }, 'linux'),
    ).toEqual([['/opt/My Browser/run', '--flag', '', url]]);
  });
});
