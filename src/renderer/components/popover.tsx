/**
 * A button that opens a small panel above it (the composer's tools and prompts). Escape or a
 * click outside closes it.
 */
import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';

/** The toggle button and, while `open`, its panel. */
export function Popover(props: {
  label: string;
  testId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  disabled?: boolean;
  children: ReactNode;
}): ReactNode {
  const { open, onOpenChange } = props;
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') onOpenChange(false);
    };
    const onPointer = (event: MouseEvent): void => {
      if (event.target instanceof Node && !root.current?.contains(event.target))
        onOpenChange(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onPointer);
    };
  }, [open, onOpenChange]);
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
        {props.label}
      </button>
      {open && (
        <div className="popover" role="dialog" aria-label={props.label}>
          {props.children}
        </div>
      )}
    </div>
  );
}
