import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTE_SCHEMAS } from '../src/http-server';

describe('sandbox/contract/routes.schema.json', () => {
  it('matches the schemas the server validates with (regenerate: node --import tsx sandbox/scripts/write-route-schemas.ts)', () => {
    const file = readFileSync(new URL('../contract/routes.schema.json', import.meta.url), 'utf8');
    expect(JSON.parse(file)).toEqual(JSON.parse(JSON.stringify(ROUTE_SCHEMAS)));
  });

  it('documents every route of the seed contract and ours', () => {
    expect(Object.keys(ROUTE_SCHEMAS).sort()).toEqual(
      [
        'DELETE /sessions/{id}',
        'GET /healthz',
        'GET /sessions/{id}/files',
        'POST /exec',
        'POST /sessions',
        'POST /sessions/{id}/files',
        'POST /sessions/{id}/interrupt',
        'POST /workspaces/reset-damaged',
      ].sort(),
    );
  });
});
