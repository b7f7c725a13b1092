/**
 * Separates `<think>…</think>` reasoning from the answer in a model's streamed content.
 *
 * Some models (DeepSeek-R1 distills, QwQ, Qwen3 behind servers that do not parse reasoning) write
 * their reasoning inline, as a think block at the very start of the content. The splitter only
 * recognises that leading block (whitespace before it is allowed): a `<think>` in the middle of an
 * answer is something the model is talking about, so it stays text.
 *
 * Work per chunk is bounded by the chunk's length plus a few held-back characters; buffers are
 * never rescanned from the start.
 */

const OPEN_TAG = '<think>';
const CLOSE_TAG = '</think>';

/** What one `push` or `finish` releases: reasoning and answer text, either possibly empty. */
export interface ThinkTagSplit {
  reasoning: string;
  text: string;
}

type SplitterState =
  /** Not yet known whether the content starts with `<think>`. */
  | 'detecting'
  /** Inside the leading think block. */
  | 'reasoning'
  /** Just after `</think>`: dropping the blank lines models put before their answer. */
  | 'after-reasoning'
  /** Everything from here on is answer text. */
  | 'text';

export class ThinkTagSplitter {
  private state: SplitterState = 'detecting';
  /** While detecting: whitespace seen before the first non-whitespace character. */
  private leadingWhitespace = '';
  /** While detecting: the characters that so far match the start of `<think>`. */
  private openTagPrefix = '';
  /** While reasoning: a tail that may be the start of `</think>` (at most 7 characters). */
  private closeTagPrefix = '';

  /**
   * Feeds one chunk of content. Text that might still be part of a tag (`<thi`, `</thin`) is held
   * back until a later chunk or `finish` decides it, so markup never leaks into either stream.
   */
  push(chunk: string): ThinkTagSplit {
    switch (this.state) {
      case 'detecting':
        return this.detect(chunk);
      case 'reasoning':
        return this.readReasoning(chunk);
      case 'after-reasoning':
        return this.skipBlankStart(chunk);
      case 'text':
        return { reasoning: '', text: chunk };
    }
  }

  /**
   * Releases whatever is held back at the end of the stream. Held characters that never became a
   * complete `<think>` are text; an unclosed think block is reasoning (the model ran out of
   * tokens or was stopped while thinking).
   */
  finish(): ThinkTagSplit {
    const state = this.state;
    this.state = 'text';
    if (state === 'detecting') {
      const text = this.leadingWhitespace + this.openTagPrefix;
      this.leadingWhitespace = '';
      this.openTagPrefix = '';
      return { reasoning: '', text };
    }
    if (state === 'reasoning') {
      const reasoning = this.closeTagPrefix;
      this.closeTagPrefix = '';
      return { reasoning, text: '' };
    }
    return { reasoning: '', text: '' };
  }

  private detect(chunk: string): ThinkTagSplit {
    // Only the first few characters are examined one by one: as soon as they either complete
    // `<think>` or stop matching it, the state changes and the rest of the chunk goes in bulk.
    for (let position = 0; position < chunk.length; position += 1) {
      const character = chunk.charAt(position);
      if (this.openTagPrefix === '' && isWhitespace(character)) {
        this.leadingWhitespace += character;
        continue;
      }
      const candidate = this.openTagPrefix + character;
      if (!OPEN_TAG.startsWith(candidate)) {
        const text = this.leadingWhitespace + this.openTagPrefix + chunk.slice(position);
        this.leadingWhitespace = '';
        this.openTagPrefix = '';
        this.state = 'text';
        return { reasoning: '', text };
      }
      this.openTagPrefix = candidate;
      if (candidate === OPEN_TAG) {
        this.leadingWhitespace = '';
        this.openTagPrefix = '';
        this.state = 'reasoning';
        return this.readReasoning(chunk.slice(position + 1));
      }
    }
    return { reasoning: '', text: '' };
  }

  private readReasoning(chunk: string): ThinkTagSplit {
    const buffer = this.closeTagPrefix + chunk;
    const closeAt = buffer.indexOf(CLOSE_TAG);
    if (closeAt >= 0) {
      this.closeTagPrefix = '';
      this.state = 'after-reasoning';
      const after = this.skipBlankStart(buffer.slice(closeAt + CLOSE_TAG.length));
      return { reasoning: buffer.slice(0, closeAt), text: after.text };
    }
    const heldLength = partialTagSuffixLength(buffer, CLOSE_TAG);
    this.closeTagPrefix = buffer.slice(buffer.length - heldLength);
    return { reasoning: buffer.slice(0, buffer.length - heldLength), text: '' };
  }

  private skipBlankStart(chunk: string): ThinkTagSplit {
    let start = 0;
    while (start < chunk.length && isWhitespace(chunk.charAt(start))) start += 1;
    if (start === chunk.length) return { reasoning: '', text: '' };
    this.state = 'text';
    return { reasoning: '', text: chunk.slice(start) };
  }
}

/** Length of the longest suffix of `buffer` that is a proper prefix of `tag` (0 if none). */
function partialTagSuffixLength(buffer: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, buffer.length); length > 0; length -= 1) {
    if (buffer.endsWith(tag.slice(0, length))) return length;
  }
  return 0;
}

function isWhitespace(character: string): boolean {
  return character === ' ' || character === '\n' || character === '\r' || character === '\t';
}
