// Writes docs/openapi.json from the schemas (src/http/openapi.ts); test/http/openapi.test.ts fails when
// the committed file differs. Run: npm run openapi
import { writeFileSync } from 'node:fs';
import { openapi } from '../src/http/openapi.js';

writeFileSync(new URL('../docs/openapi.json', import.meta.url), `${JSON.stringify(openapi, null, 2)}\n`);
