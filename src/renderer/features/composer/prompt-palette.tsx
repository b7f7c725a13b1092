/**
 * The composer's "/" palette: typing "/" at the start of the box or after white space lists the
 * saved prompt templates, filtered by the word typed after it. ↑/↓ move, Enter or Tab insert (in
 * place of the "/word"), Esc closes and leaves the text as typed; a click inserts too. A template
 * with `{{variables}}` opens the same form as the Prompts popover, in the palette's place.
 *
 * The box keeps the focus while the list is open (ARIA 1.2's pattern for a text box with a
 * list: `aria-controls` names the listbox, `aria-activedescendant` the highlighted option), so
 * typing goes on filtering. Nothing opens or moves during an IME composition: "/" typed as part
 * of composing text is only looked at once the composition ends.
 */
import type { KeyboardEvent, ReactNode, RefObject } from 'react';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useT } from '../../i18n/use-t';
import { usePromptTemplates } from './prompt-picker';
import type { PromptTemplate } from './prompt-variable-form';
import { PromptVariableForm } from './prompt-variable-form';
import type { SlashQuery } from './slash-query';
import { matchTemplates, slashQueryAt } from './slash-query';

/** What the composer wires into its text box and renders above it. */
export interface PromptPalette {
  /** Props for the text box (the list's ARIA wiring and the caret/composition tracking). */
  boxProps: {
    'aria-controls'?: string;
    'aria-activedescendant'?: string;
    'aria-autocomplete': 'list';
    onSelect(): void;
    onFocus(): void;
    onBlur(): void;
    onCompositionStart(): void;
    onCompositionEnd(): void;
  };
  /** Handles a key for the open list; true when it did (the box must then ignore it). */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** The list or the variable form, above the box; null when shut. */
  panel: ReactNode;
}

/** A chosen template with variables, and the "/word" it is to replace. */
interface Chosen {
  template: PromptTemplate;
  slash: SlashQuery;
}

/** The palette of the text box `box` whose text is `text`; `replace` puts text into a range. */
export function usePromptPalette(
  box: RefObject<HTMLTextAreaElement | null>,
  text: string,
  replace: (range: { start: number; end: number }, inserted: string) => void,
): PromptPalette {
  const [slash, setSlash] = useState<SlashQuery | null>(null);
  const [composing, setComposing] = useState(false);
  /** The list shows only while the box has the focus (a click elsewhere puts it away). */
  const [focused, setFocused] = useState(false);
  /** The slash position Esc closed the list at: it stays shut until that "/word" is gone. */
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const listId = useId();
  const track = useCallback(() => {
    const element = box.current;
    if (element === null) return;
    const caret = element.selectionStart === element.selectionEnd ? element.selectionStart : -1;
    const next = caret < 0 ? null : slashQueryAt(element.value, caret);
    setSlash((previous) =>
      previous?.start === next?.start && previous?.query === next?.query ? previous : next,
    );
    if (next === null) setDismissedAt(null);
  }, [box]);
  // The text changed (typed, inserted, cleared after sending): look at the caret again.
  useEffect(track, [text, track]);
  useEffect(() => setActive(0), [slash?.query]);
  const listing =
    slash !== null && focused && !composing && dismissedAt !== slash.start && chosen === null;
  const templates = usePromptTemplates(slash !== null);
  const matches = useMemo(
    () => (listing && templates !== null ? matchTemplates(templates, slash.query) : []),
    [listing, templates, slash],
  );
  const choose = (template: PromptTemplate): void => {
    if (slash === null) return;
    if (template.variables.length === 0) replace(slash, template.body);
    else setChosen({ template, slash });
  };
  const closeForm = (): void => {
    setChosen(null);
    box.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!listing || event.nativeEvent.isComposing || event.key === 'Process') return false;
    if (event.key === 'Escape') {
      // Handled here: the window's shortcuts must not read it as "stop the turn".
      event.preventDefault();
      setDismissedAt(slash.start);
      return true;
    }
    const picked = matches[Math.min(active, matches.length - 1)];
    if (picked === undefined) return false;
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (index + step + matches.length) % matches.length);
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey && plain) || (event.key === 'Tab' && plain)) {
      event.preventDefault();
      choose(picked);
      return true;
    }
    return false;
  };
  const activeIndex = Math.min(active, matches.length - 1);
  const optionId = (index: number): string => `${listId}-option-${index}`;
  let panel: ReactNode = null;
  if (chosen !== null) {
    panel = (
      <div className="prompt-palette popover-framed" data-testid="prompt-palette-form">
        <PromptVariableForm
          template={chosen.template}
          onBack={closeForm}
          onInsert={(filled) => {
            setChosen(null);
            replace(stillThere(box.current?.value ?? '', chosen.slash), filled);
          }}
          onEscape={() => {
            setDismissedAt(chosen.slash.start);
            closeForm();
          }}
        />
      </div>
    );
  } else if (listing) {
    panel = (
      <PaletteList
        id={listId}
        templates={templates}
        matches={matches}
        active={activeIndex}
        optionId={optionId}
        onChoose={choose}
        onHover={setActive}
      />
    );
  }
  return {
    boxProps: {
      ...(listing ? { 'aria-controls': listId } : {}),
      ...(listing && activeIndex >= 0 ? { 'aria-activedescendant': optionId(activeIndex) } : {}),
      'aria-autocomplete': 'list',
      onSelect: track,
      onFocus: () => setFocused(true),
      onBlur: () => setFocused(false),
      onCompositionStart: () => setComposing(true),
      onCompositionEnd: () => {
        setComposing(false);
        // The composed text is in the box now; a "/" in it counts from here on.
        window.setTimeout(track, 0);
      },
    },
    onKeyDown,
    panel,
  };
}

/** `slash`'s range when the box still has that "/word" there, else the end of the text. */
function stillThere(value: string, slash: SlashQuery): { start: number; end: number } {
  if (value.slice(slash.start, slash.end) === `/${slash.query}`) return slash;
  return { start: value.length, end: value.length };
}

function PaletteList(props: {
  id: string;
  templates: readonly PromptTemplate[] | null;
  matches: readonly PromptTemplate[];
  active: number;
  optionId(index: number): string;
  onChoose(template: PromptTemplate): void;
  onHover(index: number): void;
}): ReactNode {
  const t = useT();
  const { templates, matches } = props;
  let hint: string | null = null;
  if (templates === null) hint = t('tools.loading');
  else if (templates.length === 0) hint = t('prompts.empty');
  else if (matches.length === 0) hint = t('prompts.noMatch');
  return (
    <div className="prompt-palette" data-testid="prompt-palette">
      <div className="prompt-palette-title" aria-hidden="true">
        {t('prompts.title')}
      </div>
      {hint !== null && <p className="popover-hint">{hint}</p>}
      <ul id={props.id} role="listbox" aria-label={t('prompts.title')} className="palette-list">
        {matches.map((template, index) => (
          <li
            key={template.id}
            id={props.optionId(index)}
            role="option"
            aria-selected={index === props.active}
            className={`palette-option${index === props.active ? ' active' : ''}`}
            data-testid="prompt-palette-option"
            // The box keeps the focus (and the caret) when an option is clicked.
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => props.onHover(index)}
            onClick={() => props.onChoose(template)}
          >
            <span className="palette-option-title">{template.title}</span>
            <span className="palette-option-body">{template.body}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
