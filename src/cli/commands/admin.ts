// Provisioning: `websift org create|credit|list` and `websift key create|revoke`.

import { expectPositionals, parse, stringOption, toInt } from '../args.js';
import { CliError } from '../cli-error.js';
import { printJson } from '../output.js';
import { withEngine } from './session.js';

const MAX_CREDITS = 1_000_000_000;

export async function orgCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const parsed = parse(`org ${action ?? ''}`.trim(), rest, { credits: { type: 'string' } });
  switch (action) {
    case 'create': {
      const [id] = expectPositionals(parsed, 'org create', ['id']);
      const raw = stringOption(parsed, 'credits');
      const credits = raw === undefined ? 0 : toInt(raw, '--credits', 0, MAX_CREDITS);
      await withEngine(parsed, async ({ engine }) => {
        await engine.admin.createOrganization(id!, { credits });
        printJson({ organization: id, credits });
      });
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

export async function keyCommand(args: string[]): Promise<void> {
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
