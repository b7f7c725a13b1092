import { describe, expect, it } from 'vitest';
import { markdownToText } from '../../../src/renderer/components/markdown-text';
import { translator } from '../../../src/renderer/i18n/i18n';
import { formatDuration } from '../../../src/renderer/state/duration-text';
import { parsePythonResult, pythonCode } from '../../../src/renderer/state/python-cell';
import { skillLabel, toolLabel } from '../../../src/renderer/state/tool-labels';
import { describeResult } from '../../../src/main/tools/python-execute';
import {
  DOCUMENT_GENERATION_NAME,
  DOCUMENT_GENERATION_WHEN_TO_USE,
} from '../../../src/main/tools/document-generation-skill';

const en = translator('en');
const zh = translator('zh-CN');

describe('renderer: durations as people read them', () => {
  it('reads seconds with one decimal under ten seconds, whole seconds above', () => {
    expect(formatDuration(8417, en)).toBe('8.4 s');
    expect(formatDuration(950, en)).toBe('1.0 s');
    expect(formatDuration(120, en)).toBe('0.1 s');
    expect(formatDuration(9_949, en)).toBe('9.9 s');
    expect(formatDuration(12_400, en)).toBe('12 s');
    expect(formatDuration(59_400, en)).toBe('59 s');
  });

  it('reads minutes and hours, and never shows a measured time as nothing', () => {
    expect(formatDuration(125_000, en)).toBe('2 min 5 s');
    expect(formatDuration(59_600, en)).toBe('1 min 0 s');
    expect(formatDuration(3_780_000, en)).toBe('1 h 3 min');
    expect(formatDuration(12, en)).toBe('< 0.1 s');
    expect(formatDuration(0, en)).toBe('< 0.1 s');
    expect(formatDuration(-5, en)).toBe('< 0.1 s');
    expect(formatDuration(Number.NaN, en)).toBe('< 0.1 s');
  });

  it('speaks Chinese too', () => {
    expect(formatDuration(8417, zh)).toBe('8.4 秒');
    expect(formatDuration(125_000, zh)).toBe('2 分 5 秒');
  });
});

describe('renderer: Markdown as plain text (the live region)', () => {
  it('drops headings, emphasis, code and link markers and keeps their text', () => {
    const text = markdownToText(
      '# Migrating the **complete plan**\n\nRead `config.ts` and [the guide](https://example.com/guide), then *rerun*.',
    );
    expect(text).toBe('Migrating the complete plan\nRead config.ts and the guide, then rerun.');
  });

  it('reads a table row by row, list items and code blocks as lines, images as their alt', () => {
    const text = markdownToText(
      [
        '| Step | Owner |',
        '|:--|--:|',
        '| Export | Ana |',
        '',
        '- first',
        '- second',
        '',
        '```python',
        'print(1)',
        '```',
        '',
        '![a bar chart](https://example.com/chart.png)',
        '',
        '> quoted ~~old~~',
        '',
        '---',
      ].join('\n'),
    );
    expect(text).toBe(
      [
        'Step, Owner',
        'Export, Ana',
        'first',
        'second',
        'print(1)',
        'a bar chart',
        'quoted old',
      ].join('\n'),
    );
    for (const marker of ['|', '#', '**', '`', '[', '](', '>', ':--', '~~']) {
      expect(text).not.toContain(marker);
    }
  });

  it('keeps plain text as it is', () => {
    expect(markdownToText('Hello from the scripted model.')).toBe('Hello from the scripted model.');
    expect(markdownToText('')).toBe('');
  });
});

describe('renderer: a python_execute result as a code cell', () => {
  const run = (fields: Partial<Parameters<typeof describeResult>[0]>): string =>
    describeResult(
      {
        status: 'ok',
        duration_ms: 8417,
        stdout: '',
        stderr: '',
        outputs: [],
        ...fields,
      } as Parameters<typeof describeResult>[0],
      [],
      0,
    );

  it('reads back the streams the tool wrote for the model', () => {
    const result = parsePythonResult(run({ stdout: 'saved\n2 rows\n', stderr: 'a warning\n' }));
    expect(result.stdout).toBe('saved\n2 rows\n');
    expect(result.stderr).toBe('a warning\n');
    expect(result.error).toBeNull();
    expect(result.other).toBeNull();
  });

  it('keeps the error apart and the notes as notes', () => {
    const result = parsePythonResult(
      run({
        status: 'error',
        stderr: 'Traceback …\nZeroDivisionError: division by zero',
        error: 'ZeroDivisionError: division by zero',
        worker_restarted: true,
      }),
    );
    expect(result.stdout).toBeNull();
    expect(result.stderr).toBe('Traceback …\nZeroDivisionError: division by zero');
    expect(result.error).toBe('ZeroDivisionError: division by zero');
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toMatch(/^note: the Python process was restarted/);
    expect(parsePythonResult(run({})).notes).toEqual(['(no output: print() what you want to see)']);
  });

  it('keeps any other result whole, and finds the code in parsed or raw arguments', () => {
    expect(parsePythonResult('Invalid tool arguments: code is required').other).toBe(
      'Invalid tool arguments: code is required',
    );
    expect(pythonCode({ code: 'print(1)\nprint(2)' })).toBe('print(1)\nprint(2)');
    expect(pythonCode('{"code":"x = 1"}')).toBe('x = 1');
    expect(pythonCode('{"code":')).toBeNull();
    expect(pythonCode({ code: 3 })).toBeNull();
    expect(pythonCode(null)).toBeNull();
  });
});

describe('renderer: friendly names of built-in tools and skills', () => {
  it('shows people friendly names, other names as they are', () => {
    expect(toolLabel('aivory_web_search', en)).toBe('Web search');
    expect(toolLabel('aivory_web_search', zh)).toBe('联网搜索');
    expect(toolLabel('everything__echo', en)).toBe('everything__echo');
  });

  it("describes the built-in skill in plain words; a user's skill keeps its own", () => {
    const builtIn = {
      name: DOCUMENT_GENERATION_NAME,
      whenToUse: DOCUMENT_GENERATION_WHEN_TO_USE,
      builtIn: true,
    };
    expect(skillLabel(builtIn, en).name).toBe('Document generation');
    expect(skillLabel(builtIn, en).about).not.toMatch(/MUST|BEFORE/);
    expect(skillLabel(builtIn, zh).about).toContain('PDF');
    const own = { name: 'my-notes', whenToUse: 'When I ask for NOTES', builtIn: false };
    expect(skillLabel(own, en)).toEqual({ name: 'my-notes', about: 'When I ask for NOTES' });
  });
});
