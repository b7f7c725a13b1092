/**
 * What every modal dialog of ours does: take focus when it opens (the element marked
 * `data-autofocus`, else the first focusable one, else the dialog itself), keep Tab and Shift+Tab
 * inside, close on Esc and on a click on the backdrop, and give focus back to where it was when it
 * closes. Dialogs stack: only the newest one answers Esc. A key pressed inside some other modal
 * (the approval card over settings) is left to that one.
 */
import type { MouseEvent, RefObject } from 'react';
import { useEffect, useRef } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The open dialogs, newest last. */
const stack: HTMLElement[] = [];

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => element.getClientRects().length > 0,
  );
}

/**
 * Wires the dialog whose container is `ref` (give it `tabIndex={-1}`). Returns the backdrop's
 * mouse handlers: spread them on the overlay, whose own area (not the dialog's) closes it.
 */
export function useModalDialog(
  ref: RefObject<HTMLElement | null>,
  onClose: () => void,
): {
  onMouseDown(event: MouseEvent<HTMLElement>): void;
  onClick(event: MouseEvent<HTMLElement>): void;
} {
  const close = useRef(onClose);
  close.current = onClose;
  const pressedOnBackdrop = useRef(false);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    stack.push(dialog);
    const first =
      dialog.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(dialog)[0] ?? dialog;
    first.focus();
    const onKeyDown = (event: KeyboardEvent): void => {
      if (stack.at(-1) !== dialog || event.defaultPrevented) return;
      const target = event.target instanceof Node ? event.target : null;
      const elsewhere =
        target !== null &&
        !dialog.contains(target) &&
        target instanceof Element &&
        target.closest('[aria-modal="true"]') !== null;
      if (elsewhere) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        close.current();
      } else if (event.key === 'Tab') {
        const items = focusables(dialog);
        const firstItem = items[0];
        const lastItem = items.at(-1);
        if (!firstItem || !lastItem) {
          event.preventDefault();
          dialog.focus();
          return;
        }
        const active = document.activeElement;
        const outside = !(active instanceof Node) || !dialog.contains(active);
        if (event.shiftKey && (active === firstItem || active === dialog || outside)) {
          event.preventDefault();
          lastItem.focus();
        } else if (!event.shiftKey && (active === lastItem || outside)) {
          event.preventDefault();
          firstItem.focus();
        }
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const index = stack.indexOf(dialog);
      if (index !== -1) stack.splice(index, 1);
      if (opener?.isConnected) opener.focus();
    };
  }, [ref]);
  return {
    // A press that starts inside the dialog and ends on the backdrop (selecting text) is no click.
    onMouseDown(event) {
      pressedOnBackdrop.current = event.target === event.currentTarget;
    },
    onClick(event) {
      if (pressedOnBackdrop.current && event.target === event.currentTarget) close.current();
      pressedOnBackdrop.current = false;
    },
  };
}
