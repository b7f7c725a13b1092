/**
 * Splits a model's streamed text into what the user may see and a tool call written as text.
 *
 * Prompt mode watches for `<tool_call>`; native mode also watches for Mistral's `[TOOL_CALLS]`
 * so a model that prints its call instead of using the API is recovered rather than shown.
 * The parser never leaks markup: a chunk ending in a partial marker (`<tool_c`) is held back until
 * the next chunk decides it. Everything after the first call is dropped: one call per round.
 */
import { TOOL_CALL_CLOSE, TOOL_CALL_OPEN } from './protocol-text';

/** A marker that opens a textual tool call, and the tag that closes it (if it has one). */
export interface CallMarker {
  open: string;
  close: string | null;
}

export const PROMPT_MARKERS: readonly CallMarker[] = [
  { open: TOOL_CALL_OPEN, close: TOOL_CALL_CLOSE },
];

export const NATIVE_RECOVERY_MARKERS: readonly CallMarker[] = [
  { open: TOOL_CALL_OPEN, close: TOOL_CALL_CLOSE },
  { open: '[TOOL_CALLS]', close: null },
];

/** The raw text of one call found in the stream: which marker opened it and what followed. */
export interface RawTextCall {
  marker: CallMarker;
  body: string;
  /** True when the closing tag was seen (false when the stop sequence or stream end cut it). */
  closed: boolean;
}

type State = 'text' | 'call' | 'after-call';

export class ToolCallStreamParser {
  private readonly markers: readonly CallMarker[];
  private readonly longestOpen: number;
  private state: State = 'text';
  private held = '';
  private callMarker: CallMarker | null = null;
  private callParts: string[] = [];
  private callTail = '';
  private closed = false;

  constructor(markers: readonly CallMarker[]) {
    this.markers = markers;
    this.longestOpen = Math.max(...markers.map((marker) => marker.open.length));
  }

  /** Feeds one chunk; returns the text that is now safe to show (possibly empty). */
  push(chunk: string): string {
    if (this.state === 'after-call') return '';
    if (this.state === 'call') {
      this.appendCallText(chunk);
      return '';
    }
    const buffer = this.held + chunk;
    const found = this.findOpen(buffer);
    if (found) {
      this.state = 'call';
      this.held = '';
      this.callMarker = found.marker;
      this.appendCallText(buffer.slice(found.index + found.marker.open.length));
      return buffer.slice(0, found.index);
    }
    const keep = this.partialMarkerSuffixLength(buffer);
    this.held = buffer.slice(buffer.length - keep);
    return buffer.slice(0, buffer.length - keep);
  }

  /** Ends the stream: returns held-back text (when no call followed) and the call, if any. */
  finish(): { text: string; call: RawTextCall | null } {
    if (this.callMarker === null) {
      const text = this.held;
      this.held = '';
      return { text, call: null };
    }
    return {
      text: '',
      call: { marker: this.callMarker, body: this.joinedBody(), closed: this.closed },
    };
  }

  private appendCallText(text: string): void {
    const close = this.callMarker?.close;
    if (!close) {
      this.callParts.push(text);
      return;
    }
    // The closing tag may straddle chunks: search only the last few characters kept so far plus
    // the new text. Body pieces are kept in a list and joined once, so a long call body is never
    // copied or rescanned per chunk (that would be quadratic in its length).
    const window = this.callTail + text;
    const index = window.indexOf(close);
    if (index === -1) {
      this.callParts.push(text);
      this.callTail = window.slice(Math.max(0, window.length - close.length + 1));
      return;
    }
    // Drop the part of the tail that belongs to the closing tag, then keep what precedes it.
    const fromText = index - this.callTail.length;
    if (fromText >= 0) {
      this.callParts.push(text.slice(0, fromText));
    } else {
      const body = this.callParts.join('');
      this.callParts = [body.slice(0, body.length + fromText)];
    }
    this.closed = true;
    this.state = 'after-call';
  }

  private joinedBody(): string {
    const body = this.callParts.join('');
    this.callParts = [body];
    return body;
  }

  private findOpen(buffer: string): { index: number; marker: CallMarker } | null {
    let best: { index: number; marker: CallMarker } | null = null;
    for (const marker of this.markers) {
      const index = buffer.indexOf(marker.open);
      if (index !== -1 && (best === null || index < best.index)) best = { index, marker };
    }
    return best;
  }

  /** Length of the longest buffer suffix that is a proper prefix of some opening marker. */
  private partialMarkerSuffixLength(buffer: string): number {
    const max = Math.min(buffer.length, this.longestOpen - 1);
    for (let length = max; length > 0; length--) {
      const start = buffer.length - length;
      if (this.markers.some((marker) => buffer.startsWith(marker.open.slice(0, length), start))) {
        return length;
      }
    }
    return 0;
  }
}
