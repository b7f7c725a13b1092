/**
 * One argument of an MCP prompt or resource template, with the server's suggestions
 * (`completion/complete`) as the user types: asked after a pause in typing, at most
 * `MAX_SHOWN` shown, each cut for the eye (the whole value is what is picked), the server's
 * text rendered as text. A combobox: ArrowDown / ArrowUp move through the list, Enter picks,
 * Escape closes the list (not the picker), a click picks; nothing is picked by itself.
 */
import type { KeyboardEvent, ReactNode } from 'react';
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../i18n/use-t';

/** How long typing must pause before the server is asked. */
export const COMPLETION_DEBOUNCE_MS = 250;
/** At most this many suggestions are listed. */
const MAX_SHOWN = 8;
/** A longer suggestion is cut in the list (its title shows it whole). */
const SHOWN_CHARS = 80;

/** Asks the server for suggestions for `value`; rejects or resolves [] when it has none. */
export type Completer = (value: string) => Promise<string[]>;

export function McpArgumentInput(props: {
  name: string;
  value: string;
  onChange(value: string): void;
  /** Absent: the server does not suggest values. */
  complete?: Completer | undefined;
}): ReactNode {
  const t = useT();
  const { complete, value } = props;
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [asked, setAsked] = useState<string | null>(null);
  const listId = useId();
  const latest = useRef(0);
  useEffect(() => {
    if (complete === undefined || asked === null) return undefined;
    const request = ++latest.current;
    const timer = setTimeout(() => {
      complete(asked).then(
        (values) => {
          if (request !== latest.current) return;
          setSuggestions(values.filter((entry) => entry !== '').slice(0, MAX_SHOWN));
          setActive(-1);
        },
        () => {
          // Suggestions are a help, never in the way: a failure shows none.
          if (request === latest.current) setSuggestions([]);
        },
      );
    }, COMPLETION_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [complete, asked]);
  const ask = (next: string): void => {
    if (complete === undefined) return;
    setAsked(next);
    setOpen(true);
  };
  const pick = (chosen: string): void => {
    props.onChange(chosen);
    setOpen(false);
    setSuggestions([]);
    setActive(-1);
    latest.current++;
  };
  const shown = open && suggestions.length > 0;
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    // Keys that finish an IME composition are the composition's.
    if (event.nativeEvent.isComposing) return;
    if (!shown) {
      if (event.key === 'ArrowDown' && complete !== undefined) {
        event.preventDefault();
        ask(value);
      }
      return;
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + suggestions.length + 1) % (suggestions.length + 1));
    } else if (event.key === 'Enter' && active >= 0 && active < suggestions.length) {
      event.preventDefault();
      pick(suggestions[active] ?? '');
    } else if (event.key === 'Escape') {
      // Closes the list only: the picker stays open.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };
  const activeId = shown && active >= 0 && active < suggestions.length ? `${listId}-${active}` : '';
  return (
    <>
      <input
        data-testid="mcp-picker-argument"
        data-name={props.name}
        value={value}
        autoComplete="off"
        {...(complete === undefined
          ? {}
          : {
              role: 'combobox',
              'aria-autocomplete': 'list' as const,
              'aria-expanded': shown,
              'aria-controls': listId,
              ...(activeId === '' ? {} : { 'aria-activedescendant': activeId }),
            })}
        onChange={(event) => {
          props.onChange(event.target.value);
          ask(event.target.value);
        }}
        onFocus={() => ask(value)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {complete !== undefined && (
        <ul
          id={listId}
          role="listbox"
          className="completion-list"
          aria-label={t('mcpPicker.suggestions', { name: props.name })}
          data-testid="mcp-completions"
          hidden={!shown}
        >
          {shown &&
            suggestions.map((suggestion, index) => (
              <li
                key={suggestion}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={index === active ? 'completion active' : 'completion'}
                data-testid="mcp-completion"
                title={suggestion.length > SHOWN_CHARS ? suggestion : undefined}
                // Keeps the focus in the input, so the list does not close before the click.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(suggestion)}
              >
                {suggestion.length > SHOWN_CHARS
                  ? `${suggestion.slice(0, SHOWN_CHARS - 1)}…`
                  : suggestion}
              </li>
            ))}
        </ul>
      )}
    </>
  );
}
