#!/usr/bin/env node
// The `parquetry` command line (see `parquetry help`); the code is in src/node.ts.
import { main } from '../dist/node.js';

// output piped into a reader that stops early (`| head`): stop quietly
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

process.exitCode = await main(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
