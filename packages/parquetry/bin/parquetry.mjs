#!/usr/bin/env node
// The `parquetry` command line (see `parquetry help`); the code is in src/node/cli.ts.
import { once } from 'node:events';
import { main } from '../dist/node.js';

// output piped into a reader that stops early (`| head`): stop quietly; any other write error (a full disk,
// `> /dev/full`) is one line on stderr and exit code 1, never a stack trace or a success
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  process.stderr.write(`parquetry: cannot write the output: ${e.message}\n`);
  process.exit(1);
});

// Ctrl-C (or a TERM) stops a read or a convert between batches (a convert's temporary file is removed and no output
// is left); a second signal exits at once (a temporary `.<out>.<random>.tmp` may then remain, never `<out>` itself)
const stop = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  });
}

// lines are gathered into 64 KiB writes; between batches the CLI waits for stdout to drain (a slow reader of a
// pipe holds the read back instead of filling memory)
let held = [];
let size = 0;
const flush = () => {
  if (held.length === 0) return;
  process.stdout.write(held.join(''));
  held = [];
  size = 0;
};

process.exitCode = await main(
  process.argv.slice(2),
  (line) => {
    held.push(line, '\n');
    size += line.length + 1;
    if (size >= 65536) flush();
  },
  {
    error: (line) => {
      flush();
      process.stderr.write(`${line}\n`);
    },
    progress: (text) => process.stderr.write(text),
    progressIsTTY: process.stderr.isTTY === true,
    outputIsTTY: process.stdout.isTTY === true,
    ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
    drain: async () => {
      flush();
      if (process.stdout.writableNeedDrain) await once(process.stdout, 'drain');
    },
    signal: stop.signal,
  },
);
flush();
// a listener on SIGINT keeps nothing alive, but exit once stdout has taken everything rather than wait on stray handles
process.stdout.write('', (e) => {
  if (e && e.code !== 'EPIPE') {
    process.stderr.write(`parquetry: cannot write the output: ${e.message}\n`);
    process.exit(1);
  }
  process.exit(process.exitCode);
});
