/**
 * The MCP page's advanced settings: what servers are asked to log (`logging/setLevel`: one level
 * for all, optionally another per service; the host applies a change to connected services at
 * once) and the URL of the user's Client ID Metadata Document for OAuth sign-in. Read from the
 * shared settings query (`['settings']`), which each save's answer replaces.
 */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { McpLogLevel } from '../../../shared/mcp';
import { isClientMetadataUrl, MCP_LOG_LEVELS } from '../../../shared/mcp';
import { setMcpSettings } from '../../data/mcp';
import { getSettings, SETTINGS_KEY } from '../../data/settings';
import { useQuery } from '../../data/use-query';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { SaveState } from '../settings/form-controls';
import { Field, SaveRow } from '../settings/form-controls';
import { errorMessage } from '../settings/form-rules';

/** The advanced block; `serviceNames` are the user's services, in the page's order. */
export function McpAdvancedSection(props: { serviceNames: readonly string[] }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const settings = useQuery(SETTINGS_KEY, getSettings);
  const [metadataUrl, setMetadataUrl] = useState('');
  const [urlProblem, setUrlProblem] = useState<string | null>(null);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const mcp = settings.data?.mcp;
  const savedUrl = mcp?.oauthClientMetadataUrl;
  useEffect(() => {
    if (savedUrl !== undefined) setMetadataUrl(savedUrl);
  }, [savedUrl]);
  if (!mcp) return null;

  const setLevels = async (values: {
    logLevel?: McpLogLevel;
    serviceLogLevels?: Record<string, McpLogLevel>;
  }): Promise<void> => {
    if (!bridge) return;
    try {
      await setMcpSettings(bridge, values);
    } catch (error) {
      showError(error);
    }
  };
  const setServiceLevel = (name: string, level: string): void => {
    const next = { ...mcp.serviceLogLevels };
    if (level === '') delete next[name];
    else next[name] = level as McpLogLevel;
    void setLevels({ serviceLogLevels: next });
  };
  const saveUrl = async (): Promise<void> => {
    const text = metadataUrl.trim();
    if (text !== '' && !isClientMetadataUrl(text)) {
      setUrlProblem(t('mcp.cimdInvalid'));
      return;
    }
    setUrlProblem(null);
    if (!bridge) return;
    setSaveState('saving');
    try {
      await setMcpSettings(bridge, { oauthClientMetadataUrl: text });
      setSaveState('saved');
    } catch (error) {
      setSaveState({ failed: errorMessage(error) });
    }
  };

  return (
    <section className="settings-block mcp-advanced" data-testid="mcp-advanced">
      <h3>{t('mcp.advanced')}</h3>
      <Field label="mcp.logLevel" hint="mcp.logLevelHint" testId="mcp-log-level">
        <select
          data-testid="mcp-log-level"
          value={mcp.logLevel}
          onChange={(event) => void setLevels({ logLevel: event.target.value as McpLogLevel })}
        >
          {MCP_LOG_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
        </select>
      </Field>
      {props.serviceNames.length > 0 && (
        <div className="mcp-service-levels" data-testid="mcp-service-levels">
          <span className="field-label">{t('mcp.serviceLogLevels')}</span>
          {props.serviceNames.map((name) => (
            <label key={name} className="mcp-service-level">
              <span>{name}</span>
              <select
                data-testid="mcp-service-log-level"
                data-name={name}
                value={mcp.serviceLogLevels[name] ?? ''}
                onChange={(event) => setServiceLevel(name, event.target.value)}
              >
                <option value="">{t('mcp.logLevelDefault', { level: mcp.logLevel })}</option>
                {MCP_LOG_LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {level}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
      )}
      <Field label="mcp.cimdUrl" hint="mcp.cimdHint" error={urlProblem} testId="mcp-cimd-url">
        <input
          type="url"
          data-testid="mcp-cimd-url"
          value={metadataUrl}
          placeholder="https://example.com/aivory-client.json"
          spellCheck={false}
          onChange={(event) => {
            setMetadataUrl(event.target.value);
            setSaveState('idle');
          }}
        />
      </Field>
      <SaveRow
        state={saveState}
        testId="mcp-cimd-save"
        disabled={metadataUrl.trim() === (mcp.oauthClientMetadataUrl ?? '')}
        onSave={() => void saveUrl()}
      />
    </section>
  );
}
