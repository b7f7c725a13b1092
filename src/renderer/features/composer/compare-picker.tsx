/**
 * "Compare": up to three more saved models the next question also goes to, beside the composer's
 * model; their answers then stream side by side (`answer-group.tsx`). The toggle names how many
 * are chosen; the choice stays until it is cleared (Ask one model).
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { CompareIcon } from '../../components/icons';
import { Popover } from '../../components/popover';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';

/** At most this many models beside the composer's (four in all). */
const MAX_OTHERS = 3;

export function ComparePicker(): ReactNode {
  const t = useT();
  const choices = useApp((state) => state.modelChoices);
  const modelId = useApp((state) => state.modelId);
  const chosen = useApp((state) => state.compareModelIds);
  const setChosen = useApp((state) => state.setCompareModelIds);
  const [open, setOpen] = useState(false);
  // Saved models other than the composer's own (with no model picked there: the default entry,
  // which is the saved default model when no start-up model is set).
  const own = choices.find((choice) => choice.id === modelId);
  const saved = choices.filter(
    (choice): choice is typeof choice & { id: string } =>
      choice.kind === 'saved' &&
      choice.id !== null &&
      choice.id !== modelId &&
      !(
        modelId === null &&
        own?.label === choice.label &&
        own.model === choice.model &&
        own.provider === choice.provider
      ),
  );
  if (saved.length === 0) return null;
  return (
    <Popover
      label={
        chosen.length === 0
          ? t('compare.toggle')
          : t('compare.toggleCount', { count: chosen.length })
      }
      icon={
        <>
          <CompareIcon />
          {/* In a narrow composer the label is hidden: the count stays. */}
          {chosen.length > 0 && (
            <span className="compare-count" aria-hidden="true">
              +{chosen.length}
            </span>
          )}
        </>
      }
      testId="compare-open"
      open={open}
      onOpenChange={setOpen}
    >
      <div className="popover-title">{t('compare.title')}</div>
      <p className="popover-hint">{t('compare.hint', { max: MAX_OTHERS })}</p>
      <ul className="tool-toggle-list">
        {saved.map((choice) => {
          const on = chosen.includes(choice.id);
          return (
            <li key={choice.id}>
              <label className="tool-toggle" data-testid="compare-model" data-model-id={choice.id}>
                <input
                  type="checkbox"
                  checked={on}
                  disabled={!on && chosen.length >= MAX_OTHERS}
                  onChange={(event) =>
                    setChosen(
                      event.target.checked
                        ? [...chosen, choice.id]
                        : chosen.filter((id) => id !== choice.id),
                    )
                  }
                />
                <span className="tool-toggle-name">{choice.label}</span>
                <span className="tool-toggle-layer">{choice.model}</span>
              </label>
            </li>
          );
        })}
      </ul>
      {chosen.length > 0 && (
        <button
          type="button"
          className="button ghost"
          data-testid="compare-clear"
          onClick={() => setChosen([])}
        >
          {t('compare.clear')}
        </button>
      )}
    </Popover>
  );
}
