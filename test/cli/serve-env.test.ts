import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listenAddress } from '../../src/cli/commands/serve.js';
import { mainCaptured } from './in-process.js';
import { PROCESS_START_BUDGET_MS, startCli, tempDb, waitForLine } from './run-cli.js';

const flags = (values: Record<string, string> = {}) => ({ values, positionals: [] });

describe('websift serve: port and host from the environment', () => {
  it('flags win over WEBSIFT_PORT/WEBSIFT_HOST, which win over PORT/HOST; defaults 8080 and 127.0.0.1', () => {
    const env = { PORT: '1000', HOST: '10.0.0.1', WEBSIFT_PORT: '2000', WEBSIFT_HOST: '10.0.0.2' };
    expect(listenAddress(flags(), {})).toEqual({ port: 8080, host: '127.0.0.1' });
    expect(listenAddress(flags(), { PORT: '1000', HOST: '10.0.0.1' })).toEqual({
      port: 1000,
      host: '10.0.0.1',
      hostFrom: 'environment variable HOST',
    });
    expect(listenAddress(flags(), env)).toEqual({ port: 2000, host: '10.0.0.2', hostFrom: 'environment variable WEBSIFT_HOST' });
    expect(listenAddress(flags({ port: '3000', host: '::1' }), env)).toEqual({ port: 3000, host: '::1' });
    expect(listenAddress(flags(), { PORT: '', WEBSIFT_PORT: '' })).toEqual({ port: 8080, host: '127.0.0.1' }); // empty = unset
  });

  it('an invalid port in the environment is a usage error naming the variable', async () => {
    for (const [name, value, message] of [
      ['PORT', 'http', "environment variable PORT must be an integer, got 'http'"],
      ['WEBSIFT_PORT', '70000', 'environment variable WEBSIFT_PORT must be between 0 and 65535, got 70000'],
    ] as const) {
      process.env[name] = value;
      try {
        const res = await mainCaptured(['serve', '--db', tempDb()]);
        expect(res).toEqual({ code: 2, stdout: '', stderr: `websift: ${message}\n` });
      } finally {
        delete process.env[name];
      }
    }
    // The flag wins, so a bad variable does not matter then… but a bad flag is still named as the flag.
    process.env['PORT'] = 'http';
    try {
      expect((await mainCaptured(['serve', '--port', 'x', '--db', tempDb()])).stderr).toBe("websift: --port must be an integer, got 'x'\n");
    } finally {
      delete process.env['PORT'];
    }
  });

  it('a host from the environment that cannot be bound is named', async () => {
    process.env['HOST'] = 'no-such-host.invalid';
    try {
      const res = await mainCaptured(['serve', '--port', '0', '--db', tempDb()]);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(
        /^websift: cannot listen on 'no-such-host\.invalid' \(from environment variable HOST\): (ENOTFOUND|EAI_AGAIN); set --host or WEBSIFT_HOST\n$/,
      );
    } finally {
      delete process.env['HOST'];
    }
  });

  it(
    'listens where the environment says, and warns in the banner when allowPrivateNetwork is on',
    async () => {
      const db = tempDb();
      const config = join(dirname(db), 'private.json');
      writeFileSync(config, JSON.stringify({ engine: { allowPrivateNetwork: true } }));
      // PORT and HOST are unusable: WEBSIFT_PORT and WEBSIFT_HOST must be the ones read.
      const child = startCli(['serve', '--db', db, '--config', config], {
        WEBSIFT_PORT: '0',
        PORT: 'nope',
        WEBSIFT_HOST: '127.0.0.1',
        HOST: 'no.such.host.invalid',
      });
      const exited = once(child, 'exit');
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      await waitForLine(child, /no organizations yet/);
      expect(stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(stderr).toMatch(/warning: allowPrivateNetwork is on: extract and include_content may fetch private and loopback addresses/);
      child.kill('SIGTERM');
      expect(await exited).toEqual([0, null]);
    },
    PROCESS_START_BUDGET_MS,
  );

  it(
    'says nothing about private networks when the option is off',
    async () => {
      const child = startCli(['serve', '--port', '0', '--db', tempDb()]);
      const exited = once(child, 'exit');
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      await waitForLine(child, /no organizations yet/);
      child.kill('SIGTERM'); // right after the banner: the signal handler is already there
      expect(await exited).toEqual([0, null]);
      expect(stderr).not.toMatch(/allowPrivateNetwork/);
    },
    PROCESS_START_BUDGET_MS,
  );
});
