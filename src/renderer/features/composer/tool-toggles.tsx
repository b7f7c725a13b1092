/**
 * The conversation's tools in a popover: each tool on or off for this conversation, with the
 * layer that decides it (switched off in settings, this conversation's own switch, the model's
 * defaults) and why an unavailable one cannot run. A new chat's switches work too: kept in the
 * store (`draftToolToggles`) and sent with its first message.
 */
import type { ReactNode } from 'react';
import { useCallback, useEffect, useState } from 'react';
import { Popover } from '../../components/popover';
import { conversationTools, setConversationTools } from '../../data/conversations';
import { useT } from '../../i18n/use-t';
import type { ConversationTool } from '../../state/composer-rules';
import { toggleValue } from '../../state/composer-rules';
import { useApp } from '../../state/store';
import { ToolsIcon } from '../../components/icons';
import { toolLabel } from '../../state/tool-labels';

/** The "Tools" button and its list (`data-testid="tool-toggle"` per tool). */
export function ToolToggles(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const activeId = useApp((state) => state.activeId);
  const modelId = useApp((state) => state.modelId);
  const showError = useApp((state) => state.showError);
  const draft = useApp((state) => state.draftToolToggles);
  const setDraft = useApp((state) => state.setDraftToolToggle);
  const [open, setOpen] = useState(false);
  const [tools, setTools] = useState<ConversationTool[] | null>(null);
  const scope = {
    ...(activeId ? { id: activeId } : {}),
    ...(modelId ? { modelId } : {}),
  };
  useEffect(() => {
    if (!open || !bridge) return undefined;
    let current = true;
    conversationTools(bridge, {
      ...(activeId ? { id: activeId } : { toggles: draft }),
      ...(modelId ? { modelId } : {}),
    }).then((result) => current && setTools(result.tools), showError);
    return () => {
      current = false;
    };
  }, [open, bridge, activeId, modelId, showError, draft]);
  const update = (change: { toggles?: Record<string, boolean | null>; reset?: boolean }): void => {
    if (!bridge) return;
    if (!activeId) {
      // A new chat: the store keeps the switches (the list reloads from them).
      for (const [name, value] of Object.entries(change.toggles ?? {})) setDraft(name, value);
      if (change.reset) for (const name of Object.keys(draft)) setDraft(name, null);
      return;
    }
    setConversationTools(bridge, { ...scope, id: activeId, ...change }).then(
      (result) => setTools(result.tools),
      showError,
    );
  };
  const onOpenChange = useCallback((next: boolean) => {
    setOpen(next);
    // Reopened, the list loads afresh (a switch changed elsewhere shows no stale state).
    if (!next) setTools(null);
  }, []);
  return (
    <Popover
      label={t('composer.tools')}
      icon={<ToolsIcon />}
      testId="tool-toggles-open"
      open={open}
      onOpenChange={onOpenChange}
    >
      <div className="popover-title">{t('tools.title')}</div>
      {activeId === null && <p className="popover-hint">{t('tools.newChatHint')}</p>}
      {tools === null && <p className="popover-hint">{t('tools.loading')}</p>}
      <ul className="tool-toggle-list">
        {(tools ?? []).map((tool) => (
          <li key={tool.name}>
            <label
              className={`tool-toggle${tool.available ? '' : ' unavailable'}`}
              data-testid="tool-toggle"
              data-tool-name={tool.name}
              data-on={tool.on}
              data-layer={tool.layer}
              title={tool.reason ?? undefined}
            >
              <input
                type="checkbox"
                checked={tool.on}
                disabled={tool.layer === 'global-off'}
                onChange={(event) => {
                  const checked = event.target.checked;
                  // Shown at once; the host's answer then brings the layer.
                  setTools((list) => withSwitch(list, tool.name, checked));
                  update({ toggles: { [tool.name]: toggleValue(tool, checked) } });
                }}
              />
              <span className="tool-toggle-name" title={tool.name}>
                {toolLabel(tool.name, t)}
              </span>
              <span className="tool-toggle-layer">
                {t(`tools.layer.${tool.layer}`)}
                {tool.available ? '' : ` · ${t('tools.unavailable')}`}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {(activeId !== null || Object.keys(draft).length > 0) && (
        <button
          type="button"
          className="button ghost"
          data-testid="tool-toggles-reset"
          onClick={() => update({ reset: true })}
        >
          {t('tools.reset')}
        </button>
      )}
    </Popover>
  );
}

/** The list with one tool shown on or off (before the host confirms). */
function withSwitch(
  list: ConversationTool[] | null,
  name: string,
  on: boolean,
): ConversationTool[] | null {
  return list?.map((tool) => (tool.name === name ? { ...tool, on } : tool)) ?? null;
}
