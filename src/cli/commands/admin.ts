// Provisioning: `websift org create|credit|list` and `websift key create|revoke`.

import { expectPositionals, type Options, parse, stringOption, toInt } from '../args.js';
import { CliError } from '../cli-error.js';
import type { CliCommand } from '../help.js';
import type { OpenedEngine } from '../open-engine.js';
import { printJson } from '../output.js';
import { withEngine } from './session.js';

const MAX_CREDITS = 1_000_000_000;

const ORG_OPTIONS: Options = { credits: { type: 'string', value: 'N', help: 'org create: starting credits (default 0)' } };

export const org: CliCommand = {
  help: {
    usage: ['org create <id> [--credits N]', 'org credit <id> <credits>', 'org list'],
    summary: 'Create organizations, add credits, list them with their balances (JSON on stdout).',
    options: ORG_OPTIONS,
    examples: ['websift org create acme --credits 100', 'websift org credit acme 50'],
  },
  run: orgCommand,
};

export const key: CliCommand = {
  help: {
    usage: ['key create <organization>', 'key revoke <key>'],
    summary: 'Create an API key (printed once; only its hash is stored) or revoke one.',
    options: {},
    notes: ['Exit codes: key revoke exits 1 when no live key matched.'],
    examples: ['websift key create acme'],
  },
  run: keyCommand,
};

async function orgCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const parsed = parse(`org ${action ?? ''}`.trim(), rest, ORG_OPTIONS);
  switch (action) {
    case 'create': {
      const [id] = expectPositionals(parsed, 'org create', ['id']);
      const raw = stringOption(parsed, 'credits');
      const credits = raw === undefined ? 0 : toInt(raw, '--credits', 0, MAX_CREDITS);
      const create = async ({ engine }: OpenedEngine) => {
        await engine.admin.createOrganization(id!, { credits });
        printJson({ organization: id, credits });
      };
      await withEngine(parsed, create, { create: true });
      return;
    }
    case 'credit': {
      const [id, amount] = expectPositionals(parsed, 'org credit', ['id', 'credits']);
      const credits = toInt(amount!, 'credits', 1, MAX_CREDITS);
      await withEngine(parsed, async ({ engine }) => {
        const balance = await engine.admin.addCredits(id!, credits);
        printJson({ organization: id, added: credits, balance });
      });
      return;
    }
    case 'list': {
      expectPositionals(parsed, 'org list', []);
      await withEngine(parsed, async ({ engine }) => printJson(await engine.admin.listOrganizations()));
      return;
    }
    default:
      throw new CliError(`org: expected create, credit or list${action ? `, got '${action}'` : ''}`);
  }
}

async function keyCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const parsed = parse(`key ${action ?? ''}`.trim(), rest, {});
  switch (action) {
    case 'create': {
      const [organization] = expectPositionals(parsed, 'key create', ['organization']);
      await withEngine(parsed, async ({ engine }) => {
        const key = await engine.admin.createApiKey(organization!);
        printJson({ organization, key });
      });
      return;
    }
    case 'revoke': {
      const [key] = expectPositionals(parsed, 'key revoke', ['key']);
      const revoked = await withEngine(parsed, ({ engine }) => engine.admin.revokeApiKey(key!));
      printJson({ revoked });
      if (!revoked) throw new CliError('key revoke: no live key matches', 1);
      return;
    }
    default:
      throw new CliError(`key: expected create or revoke${action ? `, got '${action}'` : ''}`);
  }
}
