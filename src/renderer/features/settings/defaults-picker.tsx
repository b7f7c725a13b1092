/**
 * A model's default selection of built-in tools or MCP services: "all" (null) or an explicit list,
 * with the seed's 已删除 / 已停用 / 未同步 marker on entries that cannot run.
 */
import type { ReactNode } from 'react';
import type { MessageKey } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';

/** A marker of an MCP default that no longer works. */
export type DefaultMarker = '已删除' | '已停用' | '未同步';

/** One checkable entry. */
export interface DefaultOption {
  value: string;
  label: string;
  marker: DefaultMarker | null;
}

/** The picker; `selected` null means "all". */
export function DefaultsPicker(props: {
  title: MessageKey;
  allLabel: MessageKey;
  someLabel: MessageKey;
  emptyLabel?: MessageKey;
  options: readonly DefaultOption[];
  selected: readonly string[] | null;
  testId: string;
  onChange(selected: string[] | null): void;
}): ReactNode {
  const t = useT();
  const { selected, options } = props;
  const toggle = (value: string, on: boolean): void => {
    const current = selected ?? [];
    props.onChange(on ? [...current, value] : current.filter((item) => item !== value));
  };
  return (
    <fieldset className="defaults-picker" data-testid={props.testId}>
      <legend>{t(props.title)}</legend>
      <label className="inline">
        <input
          type="radio"
          data-testid={`${props.testId}-all`}
          checked={selected === null}
          onChange={() => props.onChange(null)}
        />
        <span>{t(props.allLabel)}</span>
      </label>
      <label className="inline">
        <input
          type="radio"
          data-testid={`${props.testId}-some`}
          checked={selected !== null}
          onChange={() => props.onChange(options.filter((o) => !o.marker).map((o) => o.value))}
        />
        <span>{t(props.someLabel)}</span>
      </label>
      {options.length === 0 && props.emptyLabel && <p className="muted">{t(props.emptyLabel)}</p>}
      {selected !== null && (
        <div className="defaults-options">
          {options.map((option) => (
            <label key={option.value} className="inline" data-testid={`${props.testId}-option`}>
              <input
                type="checkbox"
                data-value={option.value}
                checked={selected.includes(option.value)}
                onChange={(event) => toggle(option.value, event.target.checked)}
              />
              <span>{option.label}</span>
              {option.marker && (
                <span
                  className="marker"
                  data-testid="mcp-default-marker"
                  data-marker={option.marker}
                >
                  {t(`set.models.marker.${option.marker}`)}
                </span>
              )}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** The MCP options of a model: every service, plus defaults whose service was deleted. */
export function mcpOptions(
  services: readonly { id: string; name: string; enabled: boolean; syncedAt: number | null }[],
  defaults: readonly { serviceId: string; name: string | null; marker: DefaultMarker | null }[],
): DefaultOption[] {
  const options: DefaultOption[] = services.map((service) => ({
    value: service.id,
    label: service.name,
    marker: !service.enabled ? '已停用' : service.syncedAt === null ? '未同步' : null,
  }));
  for (const entry of defaults) {
    if (!options.some((option) => option.value === entry.serviceId)) {
      options.push({
        value: entry.serviceId,
        label: entry.name ?? entry.serviceId,
        marker: '已删除',
      });
    }
  }
  return options;
}
