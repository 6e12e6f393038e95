// The package version, read from package.json: this file sits two levels below the package root both
// as src/cli/version.ts (run through tsx) and as dist/cli/version.js (the installed bin).

import { readFileSync } from 'node:fs';

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
