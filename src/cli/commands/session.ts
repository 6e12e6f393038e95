// Opens the engine for a one-shot command from its --db/--config options, and picks the organization.
// A command that reads books refuses a database file that does not exist rather than create an empty one.

import { type Parsed, stringOption } from '../args.js';
import { CliError } from '../cli-error.js';
import { loadConfig } from '../config.js';
import { type OpenedEngine, openEngine, storageFlags } from '../open-engine.js';

/** `create`: the command may start new books (org create, index add); any other needs them to exist. */
export async function withEngine<T>(parsed: Parsed, run: (opened: OpenedEngine) => Promise<T>, { create = false } = {}): Promise<T> {
  const config = loadConfig(stringOption(parsed, 'config'));
  const opened = await openEngine({ ...storageFlags(parsed.values as Record<string, string | undefined>), config, existing: !create });
  try {
    return await run(opened);
  } finally {
    await opened.close();
  }
}

/** --org, else the only organization in the database. */
export async function organizationOf(parsed: Parsed, opened: OpenedEngine): Promise<string> {
  const chosen = stringOption(parsed, 'org');
  if (chosen !== undefined) return chosen;
  const orgs = await opened.engine.admin.listOrganizations();
  if (orgs.length === 1) return orgs[0]!.id;
  if (orgs.length === 0) throw new CliError(`no organization in ${opened.database}; create one with 'websift org create <id>'`);
  throw new CliError(`${orgs.length} organizations in ${opened.database}; choose one with --org`);
}
