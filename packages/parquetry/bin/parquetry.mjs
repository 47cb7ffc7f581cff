#!/usr/bin/env node
// The `parquetry` command line (see `parquetry help`); the code is in src/cli.ts.
import { main } from '../dist/node.js';

// output piped into a reader that stops early (`| head`): stop quietly
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

// Ctrl-C (or a TERM) stops a convert between batches: its temporary file is removed and no output is left;
// a second signal exits at once (a temporary `.<out>.<random>.tmp` may then remain, never `<out>` itself)
const stop = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  });
}

process.exitCode = await main(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`), {
  error: (line) => process.stderr.write(`${line}\n`),
  progress: (text) => process.stderr.write(text),
  progressIsTTY: process.stderr.isTTY === true,
  signal: stop.signal,
});
// a listener on SIGINT keeps nothing alive, but exit now rather than wait on stray handles
process.exit(process.exitCode);
