/**
 * The composer's model: the default (the AIVORY_* model given at start-up, else the saved default
 * model) or any saved model, chosen in a searchable popover grouped by provider, each model with
 * its id and what it can do (images, native or prompt-mode tools, context size). Reloaded
 * whenever the settings panel closes (models may have changed). Keys: type to filter, ↑/↓ move,
 * Enter chooses, Esc closes.
 */
import type { KeyboardEvent, ReactNode } from 'react';
import { useEffect, useId, useRef, useState } from 'react';
import { ChevronDownIcon, ToolsIcon, VisionIcon } from '../../components/icons';
import { useDismiss } from '../../components/popover';
import type { Translate } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import type { ModelChoice } from '../../state/composer-rules';
import { contextLabel, groupModelChoices, modelChoices } from '../../state/composer-rules';
import { useApp } from '../../state/store';
import { listModels, MODELS_KEY } from '../../data/models';
import { useQuery } from '../../data/use-query';

function choiceLabel(choice: ModelChoice, t: Translate): string {
  return choice.kind === 'automatic'
    ? t('composer.modelDefault', { name: choice.label })
    : choice.label;
}

/**
 * The chosen model as the picker's toggle names it, or null before the models are listed (the
 * new chat's header shows it).
 */
export function useChosenModelLabel(): string | null {
  const t = useT();
  const modelId = useApp((state) => state.modelId);
  const choices = useApp((state) => state.modelChoices);
  const current = choices.find((choice) => choice.id === modelId) ?? choices[0];
  return current ? choiceLabel(current, t) : null;
}

/** The toggle (`data-testid="model-picker"`) and, while open, the popover of models. */
export function ModelPicker(): ReactNode {
  const t = useT();
  const settingsOpen = useApp((state) => state.settingsOpen);
  const modelId = useApp((state) => state.modelId);
  const setModelId = useApp((state) => state.setModelId);
  const choices = useApp((state) => state.modelChoices);
  const setChoices = useApp((state) => state.setModelChoices);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const listId = useId();
  // Read again when the settings close (a model may have been added, changed or removed).
  const models = useQuery(MODELS_KEY, listModels, { enabled: !settingsOpen, reportErrors: false });
  const list = models.data;
  useEffect(() => {
    if (list !== null && !settingsOpen) setChoices(modelChoices(list));
  }, [list, settingsOpen, setChoices]);
  useEffect(() => {
    // A model removed in the settings falls back to the default.
    if (modelId !== null && choices.length > 0 && !choices.some((choice) => choice.id === modelId))
      setModelId(null);
  }, [choices, modelId, setModelId]);
  const close = (refocus: boolean): void => {
    setOpen(false);
    if (refocus) toggle.current?.focus();
  };
  // Esc is handled on the search field (it must not reach the window's shortcuts).
  useDismiss(open, root, () => close(false), false);
  if (choices.length === 0) return null;

  const current = choices.find((choice) => choice.id === modelId) ?? choices[0];
  const groups = groupModelChoices(choices, query);
  const shown = groups.flatMap((group) => group.items);
  const activeIndex = Math.min(active, Math.max(0, shown.length - 1));
  const optionId = (index: number): string => `${listId}-option-${index}`;
  const choose = (choice: ModelChoice): void => {
    setModelId(choice.id);
    close(true);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (shown.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const next = (activeIndex + step + shown.length) % shown.length;
      setActive(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const choice = shown[activeIndex];
      if (choice) choose(choice);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    }
  };
  let index = -1;
  return (
    <div className="popover-anchor model-picker" ref={root}>
      <button
        ref={toggle}
        type="button"
        className={`button ghost model-picker-toggle${open ? ' active' : ''}`}
        data-testid="model-picker"
        data-model-id={modelId ?? ''}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={`${t('composer.model')}: ${current ? choiceLabel(current, t) : ''}`}
        title={current ? `${choiceLabel(current, t)} (${current.model})` : undefined}
        onClick={() => {
          if (open) {
            close(false);
            return;
          }
          setQuery('');
          setActive(Math.max(0, choices.indexOf(current ?? choices[0] ?? ({} as ModelChoice))));
          setOpen(true);
        }}
      >
        <span className="model-picker-current">{current ? choiceLabel(current, t) : ''}</span>
        <ChevronDownIcon size={14} />
      </button>
      {open && (
        <div
          className="popover model-popover"
          role="dialog"
          aria-label={t('composer.model')}
          data-testid="model-picker-popover"
        >
          <input
            className="model-search"
            data-testid="model-picker-search"
            type="search"
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={shown.length > 0 ? optionId(activeIndex) : undefined}
            aria-label={t('composer.modelSearch')}
            placeholder={t('composer.modelSearch')}
            value={query}
            // The popover opens to be typed into.
            autoFocus
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
          />
          <div
            className="model-options"
            role="listbox"
            id={listId}
            aria-label={t('composer.model')}
          >
            {shown.length === 0 && <p className="muted model-none">{t('composer.modelNone')}</p>}
            {groups.map((group) => (
              <div
                key={group.automatic ? '\u0000default' : group.provider}
                role="group"
                aria-label={group.automatic ? t('composer.modelGroupDefault') : group.provider}
              >
                <div className="model-group-title" aria-hidden="true">
                  {group.automatic ? t('composer.modelGroupDefault') : group.provider}
                </div>
                {group.items.map((choice) => {
                  index += 1;
                  const mine = index;
                  return (
                    <div
                      key={choice.id ?? '\u0000default'}
                      id={optionId(mine)}
                      role="option"
                      aria-selected={choice.id === modelId}
                      className={`model-option${mine === activeIndex ? ' active' : ''}`}
                      data-testid="model-option"
                      data-model-id={choice.id ?? ''}
                      // The search field keeps the focus; a click chooses.
                      onMouseDown={(event) => event.preventDefault()}
                      onMouseMove={() => setActive(mine)}
                      onClick={() => choose(choice)}
                    >
                      <span className="model-option-name">
                        <span className="model-option-label">{choiceLabel(choice, t)}</span>
                        {choice.model !== choice.label && (
                          <span className="model-option-id">{choice.model}</span>
                        )}
                      </span>
                      <ModelBadges choice={choice} t={t} />
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

/** What a model can do, as small badges with their meaning in the tooltip. */
function ModelBadges(props: { choice: ModelChoice; t: Translate }): ReactNode {
  const { choice, t } = props;
  return (
    <span className="model-badges">
      {choice.vision === true && (
        <span className="model-badge" title={t('composer.badgeVisionHint')} data-badge="vision">
          <VisionIcon size={12} />
          {t('composer.badgeVision')}
        </span>
      )}
      <span
        className="model-badge"
        data-badge={choice.toolMode === 'native' ? 'tools' : 'prompt-tools'}
        title={t(
          choice.toolMode === 'native'
            ? 'composer.badgeToolsHint'
            : 'composer.badgePromptToolsHint',
        )}
      >
        <ToolsIcon size={12} />
        {t(choice.toolMode === 'native' ? 'composer.badgeTools' : 'composer.badgePromptTools')}
      </span>
      {choice.contextWindow !== null && (
        <span className="model-badge" data-badge="context" title={t('composer.badgeContextHint')}>
          {contextLabel(choice.contextWindow)}
        </span>
      )}
    </span>
  );
}
