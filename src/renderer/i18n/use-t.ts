/** The translate function of the current locale, for components. */
import { useMemo } from 'react';
import { useApp } from '../state/store';
import type { Translate } from './i18n';
import { translator } from './i18n';

/** Re-renders when the language changes. */
export function useT(): Translate {
  const locale = useApp((state) => state.locale);
  return useMemo(() => translator(locale), [locale]);
}
