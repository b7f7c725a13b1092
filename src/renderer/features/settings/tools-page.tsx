/**
 * 能力与集成 → 工具: the global switch of every built-in tool (with the reason a tool that needs a
 * backend is hidden), then web search, the code sandbox (with its status line), image generation
 * and web fetching limits.
 */
import type { ReactNode } from 'react';
import type { Translate } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { Switch } from './form-controls';
import { GroupForm } from './group-form';
import { IMAGES_GROUP, SANDBOX_GROUP, SEARCH_GROUP, WEB_GROUP } from './group-specs';
import type { SettingsView } from './group-specs';
import { SandboxStatusLine } from './sandbox-status';
import { useQuery } from '../../data/use-query';
import {
  getSettings,
  setToolAvailability,
  SETTINGS_KEY,
  toolStatuses,
  TOOLS_KEY,
} from '../../data/settings';
import { hasToolLabel, toolLabel } from '../../state/tool-labels';

/** The tools page. */
export function ToolsPage(): ReactNode {
  const t = useT();
  const settings = useQuery(SETTINGS_KEY, getSettings);
  const view = settings.data;
  return (
    <div className="settings-page" data-testid="settings-page-tools">
      <ToolSwitches />
      {view === null ? <p className="muted">{t('form.loading')}</p> : <Groups view={view} />}
    </div>
  );
}

function Groups(props: { view: SettingsView }): ReactNode {
  const t = useT();
  return (
    <>
      <p className="muted">{t('set.restartHint')}</p>
      <GroupForm spec={SEARCH_GROUP} view={props.view} />
      <GroupForm spec={SANDBOX_GROUP} view={props.view}>
        <SandboxStatusLine />
      </GroupForm>
      <GroupForm spec={IMAGES_GROUP} view={props.view} />
      <GroupForm spec={WEB_GROUP} view={props.view} />
    </>
  );
}

function ToolSwitches(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const tools = useQuery(TOOLS_KEY, toolStatuses);
  const toggle = async (name: string, enabled: boolean): Promise<void> => {
    if (!bridge) return;
    try {
      await setToolAvailability(bridge, name, enabled);
    } catch (error) {
      showError(error);
    }
  };
  return (
    <section className="settings-block">
      <h3>{t('set.tools.availability')}</h3>
      <p className="muted">{t('set.tools.availabilityHint')}</p>
      <ul className="settings-list">
        {tools.data?.map((tool) => (
          <li
            key={tool.name}
            data-testid="settings-tool"
            data-tool-name={tool.name}
            data-available={tool.available}
          >
            <Switch
              checked={tool.enabled}
              label={<ToolName name={tool.name} />}
              testId={`tool-switch-${tool.name}`}
              onChange={(enabled) => void toggle(tool.name, enabled)}
            />
            <span className={tool.available ? 'check-ok' : 'muted'}>
              {tool.available
                ? t('set.tools.available')
                : tool.enabled
                  ? t('set.tools.unavailable', { reason: reasonInUi(t, tool) })
                  : t('set.tools.off')}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The host's reason a tool is hidden, except where it names a command and this page has the form
 * that does it (image generation: the section below).
 */
export function reasonInUi(t: Translate, tool: { name: string; reason: string | null }): string {
  if (tool.name === 'image_generate' && tool.reason?.includes('aivory settings'))
    return t('models.toolsPage.imagesOff');
  return tool.reason ?? '';
}

/** A tool's friendly name, its real one beside it (what the model and the CLI call it). */
export function ToolName(props: { name: string }): ReactNode {
  const t = useT();
  return (
    <span className="tool-name-pair">
      <span className="tool-label">{toolLabel(props.name, t)}</span>
      {hasToolLabel(props.name) && <code className="tool-real-name">{props.name}</code>}
    </span>
  );
}
