#!/usr/bin/env node
// The `websift` executable (package bin): runs the CLI and sets the exit code.

import { main } from './run.js';

process.exitCode = await main(process.argv.slice(2));
