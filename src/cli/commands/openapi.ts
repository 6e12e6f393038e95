// `websift openapi`: the OpenAPI document of the HTTP API.

import { expectPositionals, parse } from '../args.js';
import type { CliCommand } from '../help.js';
import { printJson } from '../output.js';

export const openapi: CliCommand = {
  help: {
    usage: ['openapi'],
    summary: 'Print the OpenAPI 3.1 document of the HTTP API (docs/openapi.json is this document).',
    options: {},
    examples: ['websift openapi > openapi.json'],
  },
  async run(args) {
    expectPositionals(parse('openapi', args, {}), 'openapi', []);
    printJson((await import('../../http/openapi.js')).openapi);
  },
};
