/**
 * The `mcp_roots` table (migration 013): the folders shared with each MCP service, read and
 * replaced as a whole. `SqliteMcpStore` delegates its `listRoots` / `setRoots` here.
 */
import { AivoryError } from '../../../shared/errors';
import type { McpRoot } from '../../../shared/mcp-roots';
import type { Statements } from './statements';

interface RootRow {
  path: string;
  name: string | null;
}

/** The service's roots in the order they were added. */
export function listRoots(sql: Statements, serviceId: string): McpRoot[] {
  return sql
    .all<RootRow>(
      'SELECT path, name FROM mcp_roots WHERE service_id = ? ORDER BY position',
      serviceId,
    )
    .map((row) => (row.name === null ? { path: row.path } : { path: row.path, name: row.name }));
}

/** Replaces the service's roots in one transaction; an unknown service is `not-found`. */
export function setRoots(sql: Statements, serviceId: string, roots: readonly McpRoot[]): void {
  sql.write(() => {
    if (sql.get('SELECT 1 FROM mcp_services WHERE id = ?', serviceId) === undefined)
      throw new AivoryError('not-found', `No MCP service with id ${serviceId}.`);
    sql.run('DELETE FROM mcp_roots WHERE service_id = ?', serviceId);
    for (const [position, root] of roots.entries()) {
      sql.run(
        'INSERT INTO mcp_roots (service_id, position, path, name) VALUES (?, ?, ?, ?)',
        serviceId,
        position,
        root.path,
        root.name ?? null,
      );
    }
  });
}
