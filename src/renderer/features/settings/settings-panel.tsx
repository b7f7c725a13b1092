/**
 * Settings, following the seed's information architecture: 通用; AI 与模型 → 模型; 能力与集成 →
 * 工具 / MCP 服务 / 技能 / 提示词; 记忆; 数据 (exports). A navigation column and the chosen page. A modal dialog: it
 * takes focus when it opens (the current page's navigation item), keeps Tab inside, and closes
 * on Esc or a click beside it, giving focus back (`use-modal-dialog.ts`).
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { IconProps } from '../../components/icons';
import {
  DataIcon,
  GeneralIcon,
  McpIcon,
  MemoryIcon,
  ModelsIcon,
  PromptTemplatesIcon,
  SkillsIcon,
  ToolsIcon,
} from '../../components/icons';
import { ModalDialog } from '../../components/modal-dialog';
import type { MessageKey } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { McpPage } from '../mcp/mcp-page';
import { DataPage } from './data-page';
import { GeneralPage } from './general-page';
import { MemoriesPage } from './memories-page';
import { ModelsPage } from './models-page';
import { PromptsPage } from './prompts-page';
import { SkillsPage } from './skills-page';
import { ToolsPage } from './tools-page';

/** A page of the settings panel. */
export type SettingsPageId =
  'general' | 'models' | 'tools' | 'mcp' | 'skills' | 'prompts' | 'memory' | 'data';

/** The navigation: groups (null title = top level) and their pages. */
const NAVIGATION: readonly { title: MessageKey | null; pages: readonly SettingsPageId[] }[] = [
  { title: null, pages: ['general'] },
  { title: 'set.nav.ai', pages: ['models'] },
  { title: 'set.nav.capabilities', pages: ['tools', 'mcp', 'skills', 'prompts'] },
  { title: null, pages: ['memory', 'data'] },
];

const PAGE_LABELS: Record<SettingsPageId, MessageKey> = {
  general: 'set.nav.general',
  models: 'set.nav.models',
  tools: 'set.nav.tools',
  mcp: 'set.nav.mcp',
  skills: 'set.nav.skills',
  prompts: 'set.nav.prompts',
  memory: 'set.nav.memory',
  data: 'set.nav.data',
};

/** Each page's icon in the navigation (decoration: the label names the page). */
const PAGE_ICONS: Record<SettingsPageId, (props: IconProps) => ReactNode> = {
  general: GeneralIcon,
  models: ModelsIcon,
  tools: ToolsIcon,
  mcp: McpIcon,
  skills: SkillsIcon,
  prompts: PromptTemplatesIcon,
  memory: MemoryIcon,
  data: DataIcon,
};

/** The settings dialog. */
export function SettingsPanel(): ReactNode {
  const t = useT();
  const close = useApp((state) => state.setSettingsOpen);
  const [page, setPage] = useState<SettingsPageId>('general');
  return (
    <ModalDialog
      title={t('settings.title')}
      closeLabel={t('settings.close')}
      onClose={() => close(false)}
      className="panel settings-panel"
      overlayClassName="overlay"
      overlayTestId="settings-panel"
      closeTestId="settings-close"
    >
      <div className="settings-body">
        <nav className="settings-nav" aria-label={t('settings.title')}>
          {NAVIGATION.map((group, index) => (
            <div key={index} className="settings-nav-group">
              {group.title && <h2>{t(group.title)}</h2>}
              {group.pages.map((id) => {
                const Icon = PAGE_ICONS[id];
                return (
                  <button
                    key={id}
                    type="button"
                    className={`settings-nav-item${id === page ? ' active' : ''}`}
                    aria-current={id === page ? 'page' : undefined}
                    data-autofocus={id === page ? true : undefined}
                    data-testid={`settings-nav-${id}`}
                    onClick={() => setPage(id)}
                  >
                    <Icon />
                    <span>{t(PAGE_LABELS[id])}</span>
                  </button>
                );
              })}
            </div>
          ))}
        </nav>
        <div className="settings-content">
          <h2 className="settings-page-title">{t(PAGE_LABELS[page])}</h2>
          <Page id={page} />
        </div>
      </div>
    </ModalDialog>
  );
}

function Page(props: { id: SettingsPageId }): ReactNode {
  switch (props.id) {
    case 'general':
      return <GeneralPage />;
    case 'models':
      return <ModelsPage />;
    case 'tools':
      return <ToolsPage />;
    case 'mcp':
      return <McpPage />;
    case 'skills':
      return <SkillsPage />;
    case 'prompts':
      return <PromptsPage />;
    case 'memory':
      return <MemoriesPage />;
    case 'data':
      return <DataPage />;
  }
}
