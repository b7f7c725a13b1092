/**
 * Maps a URL path to the routes it has, per method. Path segments are compared raw (not
 * percent-decoded), so an encoded `/` or `..` can never form a session id.
 */
import { isSessionId } from './input-checks';
import type { RouteKey } from './route-schemas';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface PathMatch {
  /** The route for each method this path accepts (also the 405 `Allow` list). */
  routes: Partial<Record<HttpMethod, RouteKey>>;
  /** The `{id}` segment, already checked against the session id pattern. */
  sessionId: string | null;
}

/** Null means 404: no such path, or a session id that cannot exist. */
export function matchPath(pathname: string): PathMatch | null {
  const segments = pathname.split('/').slice(1);
  const [first, id, action, ...rest] = segments;
  if (segments.length === 1 && first === 'healthz') {
    return { routes: { GET: 'GET /healthz' }, sessionId: null };
  }
  if (segments.length === 1 && first === 'exec') {
    return { routes: { POST: 'POST /exec' }, sessionId: null };
  }
  if (segments.length === 2 && first === 'workspaces' && id === 'reset-damaged') {
    return { routes: { POST: 'POST /workspaces/reset-damaged' }, sessionId: null };
  }
  if (first !== 'sessions' || rest.length > 0) return null;
  if (id === undefined) return { routes: { POST: 'POST /sessions' }, sessionId: null };
  if (!isSessionId(id)) return null;
  if (action === undefined) return { routes: { DELETE: 'DELETE /sessions/{id}' }, sessionId: id };
  if (action === 'files') {
    return {
      routes: { GET: 'GET /sessions/{id}/files', POST: 'POST /sessions/{id}/files' },
      sessionId: id,
    };
  }
  if (action === 'interrupt') {
    return { routes: { POST: 'POST /sessions/{id}/interrupt' }, sessionId: id };
  }
  return null;
}

export function isHttpMethod(method: string | undefined): method is HttpMethod {
  return method === 'GET' || method === 'POST' || method === 'DELETE';
}
