/**
 * Writes sandbox/contract/routes.schema.json from ROUTE_SCHEMAS (the zod schemas the server
 * validates with). sandbox/test/contract-file.test.ts fails when the file is out of date.
 *   node --import tsx sandbox/scripts/write-route-schemas.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ROUTE_SCHEMAS } from '../src/http-server';

const target = fileURLToPath(new URL('../contract/routes.schema.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(ROUTE_SCHEMAS, null, 2)}\n`);
console.log(`wrote ${target}`);
