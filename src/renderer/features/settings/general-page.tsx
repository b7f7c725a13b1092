/** 通用: language, theme, the default mode of new turns, the version. */
import type { ReactNode } from 'react';
import type { TurnMode } from '../../../shared/dto';
import type { LanguageSetting } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { ThemeSetting } from '../theme/theme';
import { saveThemeSetting, useThemeSetting } from '../theme/theme';
import { SecretStorageLine } from './secret-storage-line';
import { setSettings } from '../../data/settings';

const MODES: readonly TurnMode[] = ['fast', 'normal', 'deep'];
const THEMES: readonly ThemeSetting[] = ['system', 'light', 'dark'];

/** The general page (the one settings opens on). */
export function GeneralPage(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const languageSetting = useApp((state) => state.languageSetting);
  const setLanguage = useApp((state) => state.setLanguage);
  const mode = useApp((state) => state.mode);
  const setMode = useApp((state) => state.setMode);
  const showError = useApp((state) => state.showError);
  const version = useApp((state) => state.version);
  const theme = useThemeSetting();
  const saveMode = async (next: TurnMode): Promise<void> => {
    setMode(next);
    if (!bridge) return;
    try {
      await setSettings(bridge, { key: 'chat', values: { defaultMode: next } });
    } catch (error) {
      showError(error);
    }
  };
  const saveTheme = async (next: ThemeSetting): Promise<void> => {
    if (!bridge) return;
    try {
      await saveThemeSetting(bridge, next);
    } catch (error) {
      showError(error);
    }
  };
  return (
    <div className="settings-page" data-testid="settings-page-general">
      <section className="settings-block">
        <h3>{t('settings.language')}</h3>
        <select
          data-testid="settings-language"
          aria-label={t('settings.language')}
          value={languageSetting}
          onChange={(event) => void setLanguage(event.target.value as LanguageSetting)}
        >
          <option value="system">{t('settings.language.system')}</option>
          <option value="zh-CN">简体中文</option>
          <option value="en">English</option>
        </select>
      </section>
      <section className="settings-block">
        <h3>{t('ui.theme')}</h3>
        <select
          data-testid="settings-theme"
          aria-label={t('ui.theme')}
          value={theme}
          onChange={(event) => void saveTheme(event.target.value as ThemeSetting)}
        >
          {THEMES.map((value) => (
            <option key={value} value={value}>
              {t(`ui.theme.${value}`)}
            </option>
          ))}
        </select>
      </section>
      <section className="settings-block">
        <h3>{t('set.general.mode')}</h3>
        <select
          data-testid="settings-default-mode"
          aria-label={t('set.general.mode')}
          value={mode}
          onChange={(event) => void saveMode(event.target.value as TurnMode)}
        >
          {MODES.map((value) => (
            <option key={value} value={value}>
              {t(`mode.${value}`)}
            </option>
          ))}
        </select>
      </section>
      <SecretStorageLine />
      <section className="settings-block">
        <h3>{t('set.general.about')}</h3>
        <p className="muted">{t('settings.version', { version })}</p>
      </section>
    </div>
  );
}
