import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter } from '../../../src/main/core/orchestrator/think-tag-splitter';

/** Feeds the chunks, then finish(); returns what came out of each stream, concatenated. */
function run(chunks: string[]): { reasoning: string; text: string } {
  const splitter = new ThinkTagSplitter();
  let reasoning = '';
  let text = '';
  for (const chunk of chunks) {
    const output = splitter.push(chunk);
    reasoning += output.reasoning;
    text += output.text;
  }
  const rest = splitter.finish();
  return { reasoning: reasoning + rest.reasoning, text: text + rest.text };
}

/** Every way of cutting `input` into three chunks (including empty ones). */
function* threeWaySplits(input: string): Generator<string[]> {
  for (let first = 0; first <= input.length; first += 1) {
    for (let second = first; second <= input.length; second += 1) {
      yield [input.slice(0, first), input.slice(first, second), input.slice(second)];
    }
  }
}

describe('ThinkTagSplitter', () => {
  it('separates a leading think block at every possible pair of chunk boundaries', () => {
    const input = '<think>Plan: greet.</think>\n\nHello <b>there</b>';
    let checked = 0;
    for (const chunks of threeWaySplits(input)) {
      expect(run(chunks), JSON.stringify(chunks)).toEqual({
        reasoning: 'Plan: greet.',
        text: 'Hello <b>there</b>',
      });
      checked += 1;
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('handles one character per chunk', () => {
    expect(run([...'<think>a<b</think>answer'])).toEqual({ reasoning: 'a<b', text: 'answer' });
  });

  it('passes content without a think tag through unchanged, whatever the chunking', () => {
    for (const input of ['Hello world', '<thinking>not ours', '<b>bold</b>', '  <thx', '<', '']) {
      for (const chunks of threeWaySplits(input)) {
        expect(run(chunks), JSON.stringify(chunks)).toEqual({ reasoning: '', text: input });
      }
    }
  });

  it('allows leading whitespace before <think>', () => {
    for (const chunks of threeWaySplits('\n  \t<think>why</think>so')) {
      expect(run(chunks), JSON.stringify(chunks)).toEqual({ reasoning: 'why', text: 'so' });
    }
  });

  it('holds back a partial opening tag until it is decided', () => {
    const splitter = new ThinkTagSplitter();
    expect(splitter.push(' <thi')).toEqual({ reasoning: '', text: '' });
    expect(splitter.push('s is text')).toEqual({ reasoning: '', text: ' <this is text' });
    expect(splitter.finish()).toEqual({ reasoning: '', text: '' });
  });

  it('releases a held partial tag as text at the end of the stream', () => {
    const splitter = new ThinkTagSplitter();
    expect(splitter.push('<thin')).toEqual({ reasoning: '', text: '' });
    expect(splitter.finish()).toEqual({ reasoning: '', text: '<thin' });
  });

  it('treats an unclosed think block as reasoning, including a partial closing tag', () => {
    for (const chunks of threeWaySplits('<think>still thinking</thi')) {
      expect(run(chunks), JSON.stringify(chunks)).toEqual({
        reasoning: 'still thinking</thi',
        text: '',
      });
    }
  });

  it('streams reasoning as it arrives instead of holding it until </think>', () => {
    const splitter = new ThinkTagSplitter();
    expect(splitter.push('<think>first ')).toEqual({ reasoning: 'first ', text: '' });
    expect(splitter.push('second </')).toEqual({ reasoning: 'second ', text: '' });
    expect(splitter.push('think>answer')).toEqual({ reasoning: '', text: 'answer' });
  });

  it('leaves a <think> that appears later in the answer as text', () => {
    for (const chunks of threeWaySplits('Use <think>tags</think> like this')) {
      expect(run(chunks), JSON.stringify(chunks)).toEqual({
        reasoning: '',
        text: 'Use <think>tags</think> like this',
      });
    }
    expect(run(['<think>r</think>', 'A <think>b</think>'])).toEqual({
      reasoning: 'r',
      text: 'A <think>b</think>',
    });
  });

  // 200,000 chunks inside one block: a splitter that rescanned what it holds would be quadratic
  // and run into the test timeout. The speed goal itself is in bench/linear-work.ts.
  it('works in time proportional to the input for many small chunks', () => {
    const splitter = new ThinkTagSplitter();
    let reasoningLength = 0;
    splitter.push('<think>');
    for (let index = 0; index < 200_000; index += 1) {
      reasoningLength += splitter.push('word </').reasoning.length;
    }
    reasoningLength += splitter.finish().reasoning.length;
    expect(reasoningLength).toBe(200_000 * 'word </'.length);
  });
});
