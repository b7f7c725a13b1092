/**
 * A button that opens a small panel above it (the composer's tools and prompts). Escape or a
 * click outside closes it. `useDismiss` is that closing rule, shared with `menu.tsx`.
 */
import type { ReactNode, RefObject } from 'react';
import { useEffect, useRef } from 'react';

/** While `open`: Escape (when `escape` is true) or a press outside `root` calls `close`. */
export function useDismiss(
  open: boolean,
  root: RefObject<HTMLElement | null>,
  close: () => void,
  escape = true,
): void {
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent): void => {
      if (escape && event.key === 'Escape') {
        // Handled: the window's shortcuts must not also read it as "stop the turn". Looking for an
        // open popover is not enough there: React may already have removed it (CI saw that).
        event.preventDefault();
        close();
      }
    };
    const onPointer = (event: MouseEvent): void => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onPointer);
    };
  }, [open, root, close, escape]);
}

/** The toggle button and, while `open`, its panel. */
export function Popover(props: {
  label: string;
  testId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  disabled?: boolean;
  /** Shown before the label (an icon). */
  icon?: ReactNode;
  /** More classes for the panel (`popover-framed`: a scrolling body over a fixed footer). */
  className?: string;
  children: ReactNode;
}): ReactNode {
  const { open, onOpenChange } = props;
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, root, () => onOpenChange(false));
  return (
    <div className="popover-anchor" ref={root}>
      <button
        type="button"
        className={`button ghost popover-toggle${open ? ' active' : ''}`}
        data-testid={props.testId}
        aria-expanded={open}
        disabled={props.disabled}
        onClick={() => onOpenChange(!open)}
      >
        {props.icon}
        {props.label}
      </button>
      {open && (
        <div
          className={props.className === undefined ? 'popover' : `popover ${props.className}`}
          role="dialog"
          aria-label={props.label}
        >
          {props.children}
        </div>
      )}
    </div>
  );
}
