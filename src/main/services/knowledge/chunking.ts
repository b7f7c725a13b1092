/**
 * A file's text cut into passages of about 1,000–2,000 characters at paragraph breaks (a blank
 * line once a passage has 1,000), else before the line that would take it past 2,000; a longer
 * line is cut on its own. Each passage has its line range (from 1) or its page, and the SHA-256
 * of its text: an edit changes only the passages it touches, so the rest keep their rows.
 */
import { createHash } from 'node:crypto';
import type { ChunkLocation, NewKnowledgeChunk } from '../../core/ports';

export const CHUNK_MIN_CHARS = 1000;
export const CHUNK_MAX_CHARS = 2000;

export interface TextPassage {
  text: string;
  first: number;
  last: number;
}

/** The passages of `text`, with the line numbers an editor shows. */
export function passagesOf(text: string): TextPassage[] {
  const passages: TextPassage[] = [];
  let lines: { text: string; number: number }[] = [];
  let length = 0;
  const flush = (): void => {
    const filled = lines.filter((line) => line.text.trim() !== '');
    if (filled.length > 0) {
      const first = (filled[0] as { number: number }).number;
      const last = (filled.at(-1) as { number: number }).number;
      const body = lines
        .filter((line) => line.number >= first && line.number <= last)
        .map((line) => line.text)
        .join('\n');
      passages.push({ text: body, first, last });
    }
    lines = [];
    length = 0;
  };
  const all = text.split('\n');
  all.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const number = index + 1;
    if (line.length > CHUNK_MAX_CHARS) {
      flush();
      for (let start = 0; start < line.length; start += CHUNK_MAX_CHARS) {
        const piece = line.slice(start, start + CHUNK_MAX_CHARS);
        if (piece.trim() !== '') passages.push({ text: piece, first: number, last: number });
      }
      return;
    }
    if (length + line.length + 1 > CHUNK_MAX_CHARS) flush();
    lines.push({ text: line, number });
    length += line.length + 1;
    if (length >= CHUNK_MIN_CHARS && line.trim() === '') flush();
  });
  flush();
  return passages;
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function toChunk(text: string, location: ChunkLocation): NewKnowledgeChunk {
  return { text, contentHash: sha256(text), location };
}
