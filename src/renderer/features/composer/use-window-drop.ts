/**
 * Files dropped anywhere on the chat window attach to the composer (not only on the composer):
 * while files are dragged over the window an overlay says "Drop files to attach"; it goes on
 * leave, drop or Esc. Dropped files take the composer's add path, so the same name, size and
 * count checks apply. A drag of text or a link is left to the browser (a text box takes it as
 * ever); while a modal dialog is open (settings, an approval) there is no overlay and a drop
 * attaches nothing. A file dropped elsewhere never replaces the app with the file (browser host).
 */
import { useEffect, useState } from 'react';

/** True when a drag carries files (not text or a link). */
function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') ?? false;
}

/** A modal dialog is open: the window behind it takes no drop. */
function modalOpen(): boolean {
  return document.querySelector('[aria-modal="true"]') !== null;
}

/** Listens on the window; `dragging` is true while the overlay should show. */
export function useWindowFileDrop(onFiles: (files: File[]) => void): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    // dragenter and dragleave come in pairs for every element crossed: the drag has left the
    // window once they balance.
    let depth = 0;
    const stop = (): void => {
      depth = 0;
      setDragging(false);
    };
    const onEnter = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth += 1;
      if (!modalOpen()) setDragging(true);
    };
    const onOver = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      const refused = modalOpen();
      if (event.dataTransfer) event.dataTransfer.dropEffect = refused ? 'none' : 'copy';
      setDragging(!refused);
    };
    const onLeave = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDrop = (event: DragEvent): void => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      stop();
      if (modalOpen()) return;
      onFiles([...(event.dataTransfer?.files ?? [])]);
    };
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') stop();
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
      window.removeEventListener('keydown', onKey);
    };
  }, [onFiles]);
  return dragging;
}
