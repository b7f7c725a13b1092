/**
 * The i18n layer: every visible string is a key translated here. Two languages (简体中文,
 * English); the saved `ui.language` setting wins, otherwise the browser's locale decides.
 */
import type { MessageKey } from './messages-en';
import { EN_MESSAGES } from './messages-en';
import { ZH_MESSAGES } from './messages-zh';

/** A UI language. */
export type Locale = 'zh-CN' | 'en';
/** The `ui.language` setting. */
export type LanguageSetting = 'system' | Locale;
export type { MessageKey };

const CATALOGS: Record<Locale, Record<MessageKey, string>> = {
  en: EN_MESSAGES,
  'zh-CN': ZH_MESSAGES,
};

/** The locale for a setting; `system` follows the first preferred language (zh* → 简体中文). */
export function resolveLocale(setting: LanguageSetting, preferred: readonly string[]): Locale {
  if (setting !== 'system') return setting;
  return preferred[0]?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** The text of `key` in `locale` with `{name}` parameters filled in. */
export function translate(
  locale: Locale,
  key: MessageKey,
  params: Readonly<Record<string, string | number>> = {},
): string {
  return CATALOGS[locale][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** A translate function bound to one locale, as components use it. */
export type Translate = (
  key: MessageKey,
  params?: Readonly<Record<string, string | number>>,
) => string;

/** The translate function of one locale. */
export function translator(locale: Locale): Translate {
  return (key, params) => translate(locale, key, params);
}
