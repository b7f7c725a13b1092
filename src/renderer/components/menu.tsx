/**
 * A menu button (the WAI-ARIA pattern): an icon button with `aria-haspopup="menu"` opens a
 * `role="menu"` list of `menuitem`s. Opening focuses the first item (↑ on the button: the last);
 * ↑/↓ move and wrap, Home/End jump, Enter/Space choose, Escape closes and gives focus back to
 * the button, Tab or a click outside closes. Choosing an item closes the menu, focuses the button
 * and then runs the item. The list is placed with `position: fixed` under the button (above it
 * when there is no room), so a scrolling sidebar never clips it.
 */
import type { KeyboardEvent, ReactNode } from 'react';
import { useCallback, useId, useLayoutEffect, useRef, useState } from 'react';
import { useDismiss } from './popover';

/** One entry of a menu. */
export interface MenuItem {
  /** Stable id: the React key. */
  id: string;
  /** The item's `data-testid` (else `menu-item-<id>`). */
  testId?: string;
  label: string;
  icon?: ReactNode;
  /** Shown in the error colour (delete). */
  danger?: boolean;
  disabled?: boolean;
  onSelect(): void;
}

/** The icon button with its menu. */
export function MenuButton(props: {
  /** The button's accessible name and tooltip, and the menu's label. */
  label: string;
  icon: ReactNode;
  testId: string;
  items: readonly MenuItem[];
  /** Extra classes on the button. */
  className?: string;
}): ReactNode {
  const [open, setOpen] = useState(false);
  const [focusLast, setFocusLast] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  }, []);
  const dismiss = useCallback(() => close(false), [close]);
  // Escape is handled on the menu itself (it must not reach the window's shortcuts).
  useDismiss(open, root, dismiss, false);

  useLayoutEffect(() => {
    if (!open) return undefined;
    const menu = list.current;
    const anchor = button.current;
    if (!menu || !anchor) return undefined;
    place(menu, anchor);
    const items = enabledItems(menu);
    (focusLast ? items.at(-1) : items[0])?.focus();
    // The list stays where it was placed: scrolling or resizing under it closes it instead.
    const onMove = (event: Event): void => {
      if (!(event.target instanceof Node && menu.contains(event.target))) dismiss();
    };
    window.addEventListener('scroll', onMove, true);
    window.addEventListener('resize', onMove);
    return () => {
      window.removeEventListener('scroll', onMove, true);
      window.removeEventListener('resize', onMove);
    };
  }, [open, focusLast, dismiss]);

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>): void => {
    const menu = list.current;
    if (!menu) return;
    const items = enabledItems(menu);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number): void => items[(to + items.length) % items.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        move(index + 1);
        break;
      case 'ArrowUp':
        move(index <= 0 ? items.length - 1 : index - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(items.length - 1);
        break;
      case 'Escape':
        close(true);
        break;
      case 'Tab':
        close(false);
        return;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <div className="menu-anchor" ref={root}>
      <button
        ref={button}
        type="button"
        className={`icon-button${open ? ' active' : ''}${props.className ? ` ${props.className}` : ''}`}
        data-testid={props.testId}
        aria-label={props.label}
        title={props.label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          setFocusLast(false);
          setOpen(!open);
        }}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
          event.preventDefault();
          event.stopPropagation();
          setFocusLast(event.key === 'ArrowUp');
          setOpen(true);
        }}
      >
        {props.icon}
      </button>
      {open && (
        <div
          ref={list}
          id={menuId}
          className="menu"
          role="menu"
          aria-label={props.label}
          data-testid={`${props.testId}-menu`}
          onKeyDown={onMenuKey}
        >
          {props.items.map((item) => (
            <button
              key={item.id}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={`menu-item${item.danger ? ' danger-text' : ''}`}
              data-testid={item.testId ?? `menu-item-${item.id}`}
              disabled={item.disabled}
              onClick={() => {
                close(true);
                item.onSelect();
              }}
            >
              {item.icon}
              <span>{item.label}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function enabledItems(menu: HTMLElement): HTMLElement[] {
  return Array.from(menu.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)'));
}

/** Under the button, its right edge on the button's (left when there is no room); above it
 * when the window has no room below. CSSOM, so the strict style CSP allows it. */
function place(menu: HTMLElement, anchor: HTMLElement): void {
  const box = anchor.getBoundingClientRect();
  const width = menu.offsetWidth;
  const height = menu.offsetHeight;
  const gap = 4;
  const below = box.bottom + gap + height <= window.innerHeight;
  const top = below ? box.bottom + gap : Math.max(gap, box.top - gap - height);
  const rightAligned = box.right - width;
  const left = rightAligned >= gap ? rightAligned : Math.min(box.left, window.innerWidth - width);
  menu.style.setProperty('top', `${top}px`);
  menu.style.setProperty('left', `${Math.max(gap, left)}px`);
}
