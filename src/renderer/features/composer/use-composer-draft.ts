/**
 * The composer's draft: its text, its files and the text kept aside because it would not fit.
 *
 * Text arrives by typing (the box's `maxLength` is the host's MAX_MESSAGE_CHARS), by paste and by
 * inserting a prompt. A paste or an insertion that would make the message longer than the limit
 * is never put into the box (megabytes in a text area froze the page for half a minute); it is
 * kept as `oversized`, and the user attaches it as a text file, inserts what fits, or dismisses
 * it. Files pasted from the clipboard are attached like dropped ones.
 *
 * New chat empties the draft (text, files and notes), so nothing typed or attached before it is
 * sent into the new conversation (a file the host refused once followed the user there).
 */
import type { ClipboardEvent, RefObject, SetStateAction } from 'react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { OversizedText } from '../../state/message-text-rules';
import {
  appendRange,
  insertText,
  insertWhatFits,
  isOversized,
  pastedFileName,
  roomFor,
  withinLimit,
} from '../../state/message-text-rules';
import { useApp } from '../../state/store';
import type { Attachments } from './use-attachments';
import { textFile } from './text-file';
import { useAttachments } from './use-attachments';

/** What the composer does with its draft. */
export interface ComposerDraft {
  text: string;
  /** Sets the text (cut to the limit, like everything that reaches the box). */
  setText(next: SetStateAction<string>): void;
  attachments: Attachments;
  /** Text that would not fit, waiting for the user's choice; null when there is none. */
  oversized: OversizedText | null;
  /** Its size as a UTF-8 text file (what attaching it weighs). */
  oversizedBytes: number;
  /** How many characters of `oversized` would fit where it was to go. */
  room: number;
  paste(event: ClipboardEvent<HTMLTextAreaElement>): void;
  /** Appends a prompt's text on its own paragraph (or keeps it aside when it does not fit). */
  insertAtEnd(inserted: string): void;
  /** Puts text in place of `range` (the "/" palette's "/word"), kept aside when it does not fit. */
  replaceRange(range: { start: number; end: number }, inserted: string): void;
  attachOversized(): void;
  insertWhatFits(): void;
  dismissOversized(): void;
}

/**
 * Oversized text and its whole content as a text file. The file is made after the paste, a piece
 * per task (`text-file.ts`: encoding megabytes is never added to the browser's own clipboard read
 * in the paste's task); the note shows once it is there, since it says the file's size.
 */
interface PendingText {
  oversized: OversizedText;
  file: Blob | null;
}

/** The draft of the composer whose text box is `box`. */
export function useComposerDraft(box: RefObject<HTMLTextAreaElement | null>): ComposerDraft {
  const [text, setTextState] = useState('');
  const [pending, setPending] = useState<PendingText | null>(null);
  /** The whole oversized text until its file is made (never in state: it may be megabytes). */
  const whole = useRef<string | null>(null);
  useEffect(() => {
    if (pending === null || pending.file !== null) return;
    let cancelled = false;
    void textFile(whole.current ?? '', () => cancelled).then((file) => {
      if (cancelled || file === null) return;
      whole.current = null;
      setPending((latest) => (latest === pending ? { ...pending, file } : latest));
    });
    return () => {
      cancelled = true;
    };
  }, [pending]);
  const oversized = pending?.file ? pending.oversized : null;
  const attachments = useAttachments();
  const current = useRef(text);
  current.current = text;
  /** Where the caret goes once the box shows the text just set. */
  const caret = useRef<number | null>(null);
  const setText = useCallback((next: SetStateAction<string>) => {
    setTextState((previous) => withinLimit(typeof next === 'function' ? next(previous) : next));
  }, []);
  useLayoutEffect(() => {
    const element = box.current;
    if (caret.current === null || element === null) return;
    element.focus();
    element.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [text, box]);
  const newChats = useApp((state) => state.newChats);
  const seenNewChats = useRef(newChats);
  const { reset } = attachments;
  useEffect(() => {
    if (seenNewChats.current === newChats) return;
    seenNewChats.current = newChats;
    setTextState('');
    setPending(null);
    reset();
  }, [newChats, reset]);

  const { add } = attachments;
  const paste = useCallback(
    (event: ClipboardEvent<HTMLTextAreaElement>) => {
      const data = event.clipboardData;
      const pasted = data.getData('text/plain');
      if (pasted === '') {
        if (data.files.length === 0) return;
        event.preventDefault();
        void add([...data.files]);
        return;
      }
      const element = event.currentTarget;
      const range = { start: element.selectionStart, end: element.selectionEnd };
      const result = insertText(current.current, range, pasted);
      // What fits is pasted by the browser itself (undo keeps working).
      if (!isOversized(result)) return;
      event.preventDefault();
      whole.current = pasted;
      setPending({ oversized: result, file: null });
    },
    [add],
  );
  const insertAt = useCallback(
    (range: { start: number; end: number }, inserted: string, separator = '') => {
      const result = insertText(current.current, range, inserted, separator);
      if (isOversized(result)) {
        whole.current = inserted;
        setPending({ oversized: result, file: null });
        return;
      }
      caret.current = result.caret;
      setText(result.text);
    },
    [setText],
  );
  const insertAtEnd = useCallback(
    (inserted: string) => {
      const { range, separator } = appendRange(current.current);
      insertAt(range, inserted, separator);
    },
    [insertAt],
  );
  const attachOversized = useCallback(() => {
    const file = pending?.file;
    if (!file) return;
    const name = pastedFileName(attachments.files.map((attached) => attached.name));
    setPending(null);
    void add([new File([file], name, { type: 'text/plain' })]);
  }, [pending, attachments.files, add]);
  const insertPart = useCallback(() => {
    if (oversized === null) return;
    const result = insertWhatFits(current.current, oversized);
    setPending(null);
    caret.current = result.caret;
    setText(result.text);
  }, [oversized, setText]);
  return {
    text,
    setText,
    attachments,
    oversized,
    oversizedBytes: pending?.file?.size ?? 0,
    room: oversized === null ? 0 : roomFor(text, oversized.range, oversized.separator),
    paste,
    insertAtEnd,
    replaceRange: insertAt,
    attachOversized,
    insertWhatFits: insertPart,
    dismissOversized: () => setPending(null),
  };
}
