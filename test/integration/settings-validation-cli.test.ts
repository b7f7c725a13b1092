/**
 * Bad values are refused in words by the real `aivory`: URL settings follow the model editor's
 * one rule for endpoint URLs (`shared/endpoint-url.ts`), and AIVORY_* variables that cannot
 * mean anything stop the command instead of being ignored.
 */
import { describe, expect, it } from 'vitest';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

const ALLOWED =
  'Allowed: an http:// or https:// URL of at most 2048 characters, not on a link-local address (169.254.x.x, fe80::)';

describe('aivory settings set: URL fields', () => {
  it('refuses javascript:, file:, link-local and oversized URLs, naming the key, the value and the rule', async () => {
    const home = makeDataDir();
    const cases: [string, string, string][] = [
      [
        'search.baseUrl',
        'javascript:alert(1)',
        '"javascript:alert(1)" uses javascript: (only http:// and https:// are allowed)',
      ],
      [
        'images.baseUrl',
        'file:///etc/passwd',
        '"file:///etc/passwd" uses file: (only http:// and https:// are allowed)',
      ],
      [
        'sandbox.baseUrl',
        'http://169.254.169.254/latest',
        '"http://169.254.169.254/latest" is on a link-local address',
      ],
      [
        'search.baseUrl',
        'http://[fe80::1]:8080/',
        '"http://[fe80::1]:8080/" is on a link-local address',
      ],
      ['search.baseUrl', 'http://[::ffff:169.254.1.1]/', 'is on a link-local address'],
      [
        'search.baseUrl',
        `https://example.org/${'a'.repeat(100_000)}`,
        '…" (100,020 characters) is 100,020 characters long (at most 2048)',
      ],
    ];
    for (const [key, value, reason] of cases) {
      const result = await runCli(['settings', 'set', key, value], cliEnv(home));
      expect(result.code, value.slice(0, 40)).toBe(2);
      const line = result.stderr.trim();
      expect(line.split('\n')).toHaveLength(1);
      expect(line.startsWith(`aivory: Invalid setting ${key}: `)).toBe(true);
      expect(line).toContain(reason);
      expect(line).toContain(ALLOWED);
      expect(line.length).toBeLessThan(600);
    }
    // Control characters in a value are not echoed back.
    const bidi = await runCli(
      ['settings', 'set', 'search.baseUrl', 'javascript:\u202ealert(1)'],
      cliEnv(home),
    );
    expect(bidi.code).toBe(2);
    expect(bidi.stderr).toContain('"javascript:alert(1)"');
    expect(bidi.stderr).not.toContain('\u202e');

    const good = await runCli(
      ['settings', 'set', 'search.baseUrl', ' https://searx.example.org/ '],
      cliEnv(home),
    );
    expect(good.code).toBe(0);
    const emptied = await runCli(['settings', 'set', 'sandbox.baseUrl', ''], cliEnv(home));
    expect(emptied.code).toBe(0);
    const shown = JSON.parse((await runCli(['settings', 'show'], cliEnv(home))).stdout);
    expect(shown.search.baseUrl).toBe('https://searx.example.org/');
    expect(shown.images.baseUrl).toBe('https://api.openai.com/v1');
  });
});

describe('AIVORY_* variables that cannot mean anything', () => {
  it('stop the command with the variable, the value and what is allowed', async () => {
    const home = makeDataDir();
    const model = { AIVORY_BASE_URL: 'http://127.0.0.1:9/v1' };
    const cases: [Record<string, string>, string][] = [
      [
        { ...model, AIVORY_LLM_MAX_TOOL_CALLS_PER_TURN: '-3', AIVORY_MODEL: 'x' },
        'aivory: AIVORY_LLM_MAX_TOOL_CALLS_PER_TURN="-3" is not a positive whole number; set it to 1 or more, or unset it for the default.',
      ],
      [
        { ...model, AIVORY_MODEL: '   ' },
        'aivory: AIVORY_MODEL="   " is blank; set it to a model name (e.g. llama3.1:8b), or unset it.',
      ],
      [
        { ...model, AIVORY_MODEL: 'x', AIVORY_VISION: 'maybe' },
        'aivory: AIVORY_VISION="maybe" is not understood; use 1, true or yes (the model takes images) or 0, false or no (it does not), or unset it.',
      ],
      [
        { AIVORY_BASE_URL: 'http://169.254.169.254/v1', AIVORY_MODEL: 'x' },
        `aivory: The model base URL "http://169.254.169.254/v1" is on a link-local address (169.254.x.x or fe80::, where cloud metadata services answer). ${ALLOWED} (e.g. http://127.0.0.1:11434/v1).`,
      ],
    ];
    for (const [variables, message] of cases) {
      const result = await runCli(['chat', 'Hello'], cliEnv(home, variables));
      expect(result.stderr, JSON.stringify(variables)).toBe(`${message}\n`);
      expect(result.code).toBe(2);
    }
  });
});
