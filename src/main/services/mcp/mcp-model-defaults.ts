/**
 * A model's MCP defaults as the settings page shows them: each checked service by name, or with
 * the seed's marker when it can no longer run — 已删除 (deleted), 已停用 (disabled), 未同步
 * (never synced). Marked services are never sent to the model (the chat service only offers
 * callable tools); the marker tells the user to clean up or restore.
 */
import type { McpDefaultMarker, McpService } from '../../../shared/mcp';

export interface McpDefaultEntry {
  serviceId: string;
  /** Null when the service was deleted. */
  name: string | null;
  marker: McpDefaultMarker | null;
}

export function mcpDefaultEntries(
  defaults: readonly string[] | null | undefined,
  services: readonly McpService[],
): McpDefaultEntry[] {
  return (defaults ?? []).map((serviceId) => {
    const service = services.find((candidate) => candidate.id === serviceId);
    if (!service) return { serviceId, name: null, marker: '已删除' };
    const marker = !service.enabled ? '已停用' : service.syncedAt === null ? '未同步' : null;
    return { serviceId, name: service.name, marker };
  });
}

/** `everything, files (已停用), mcp_3 (已删除)`; "all enabled" when the model has no list. */
export function describeMcpDefaults(
  defaults: readonly string[] | null | undefined,
  services: readonly McpService[],
): string {
  if (defaults == null) return 'all enabled';
  if (defaults.length === 0) return 'none';
  return mcpDefaultEntries(defaults, services)
    .map((entry) => `${entry.name ?? entry.serviceId}${entry.marker ? ` (${entry.marker})` : ''}`)
    .join(', ');
}
