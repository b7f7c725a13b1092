/** The messages between the DOCX viewer and its worker (`docx-worker.ts`). */
import type { ReaderLimit } from './reader-limits';

/** Longest HTML the worker hands back (characters; images are data: URLs inside it). */
export const MAX_DOCX_HTML_CHARS = 32 * 1024 * 1024;

export type DocxRequest = { bytes: ArrayBuffer };

export type DocxResponse =
  | { type: 'converted'; html: string; messages: number }
  /** Past one of the reader's work bounds (`docx-prepare.ts`, or the HTML's length). */
  | { type: 'too-large'; limit: ReaderLimit }
  | { type: 'failed'; message: string };
