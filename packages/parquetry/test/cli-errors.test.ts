/**
 * Error messages of the command line: unknown commands (with the nearest one), unknown options (the nearest, or the
 * commands they belong to), missing arguments and values, bad values, bad `--where` expressions (the character
 * where the text goes wrong), unknown columns, missing and non-Parquet files. Each is one line on the error stream
 * (no stack trace), nothing on the output, exit 2 for usage errors and 1 for failures.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { field } from '../src/index.js';
import { writeFile } from '../src/node.js';
import { repo, run, sample } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-errors-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const S = sample;
const CASES: [what: string, argv: string[], code: number, message: RegExp][] = [
  ['unknown command, a typo', ['haed', S], 2, /^parquetry: unknown command 'haed' \(did you mean 'head'\?\); 'parquetry help' lists the commands$/],
  ['unknown command, a synonym', ['metadata', S], 2, /^parquetry: unknown command 'metadata' \(did you mean 'meta'\?\)/],
  ['unknown command, a transposition', ['stast', S, 'id'], 2, /\(did you mean 'stats'\?\)/],
  ['unknown command, nothing near', ['frobnicate'], 2, /^parquetry: unknown command 'frobnicate'; 'parquetry help' lists the commands$/],
  ['help for an unknown command', ['help', 'cst'], 2, /^parquetry: help: no command 'cst' \(did you mean 'cat'\?\)/],
  ['an option before the command', ['--colums'], 2, /^parquetry: unknown option '--colums'; a command comes first/],
  ['unknown option, a typo', ['head', S, '--colums', 'id'], 2, /^parquetry: head: unknown option '--colums' \(did you mean '--columns'\?\); 'parquetry help head' lists its options$/],
  ['an option of another command', ['head', S, '--json'], 2, /^parquetry: head: unknown option '--json' \(an option of schema and meta\)/],
  ['a value given to a flag', ['schema', S, '--json=yes'], 2, /^parquetry: schema: option '--json' takes no value$/],
  ['a missing file', ['head'], 2, /^parquetry: head takes a file, a directory or several files, none was given$/],
  ['a missing column', ['stats', S], 2, /^parquetry: stats takes a file and a column, only '.*sample\.parquet' was given$/],
  ['too many arguments', ['pages', S, 'id', 'x'], 2, /^parquetry: pages takes a file and optionally a column, not 3/],
  ['a missing option value', ['head', S, '-n'], 2, /^parquetry: head: option '-n' needs a value$/],
  ['a bad number', ['head', S, '-n', 'ten'], 2, /^parquetry: -n takes a whole number, not 'ten'$/],
  ['a bad format', ['cat', S, '--format', 'xml'], 2, /^parquetry: --format is table, json, ndjson, csv, not 'xml'$/],
  ['a bad binary form', ['cat', S, '--binary', 'b64'], 2, /^parquetry: --binary is base64, hex or utf8, not 'b64'$/],
  ['--dates without --raw', ['cat', S, '--dates'], 2, /^parquetry: --dates changes what --raw prints/],
  ['an unknown column in --columns', ['head', S, '--columns', 'id,nme'], 2, /^parquetry: --columns: no column 'nme' \(did you mean 'name'\?\)$/],
  ['an unknown column in stats', ['stats', S, 'scroe'], 2, /^parquetry: stats: no column 'scroe' \(did you mean 'score'\?\)$/],
  ['a group of several columns in stats', ['stats', S, 'rec'], 2, /^parquetry: stats: 'rec' is a group of 2 columns; name one: rec\.a, rec\.b$/],
  // pages and bloom: a usage error as stats and --columns (QA helper-85 F7: UNKNOWN_COLUMN, exit 1)
  ['an unknown column in pages', ['pages', S, 'naem'], 2, /^parquetry: pages: no column 'naem' \(did you mean 'name'\?\)$/],
  ['an unknown column in pages, nothing near', ['pages', S, 'zzzzzzzz'], 2, /^parquetry: pages: no column 'zzzzzzzz' \(columns: id, name, score, maybe, even, ts, pair\.list\.element, rec\.a, rec\.b\)$/],
  ['an unknown column in bloom', ['bloom', S, 'scroe', '1'], 2, /^parquetry: bloom: no column 'scroe' \(did you mean 'score'\?\)$/],
  ['a group of several columns in bloom', ['bloom', S, 'rec', '1'], 2, /^parquetry: bloom: 'rec' is a group of 2 columns; name one: rec\.a, rec\.b$/],
  ['a missing file', ['head', path.join(dir, 'nope.parquet')], 1, /^parquetry: cannot open '.*nope\.parquet': ENOENT: no such file or directory/],
  ['a directory without data files (read as a dataset)', ['head', dir], 1, /^parquetry: NO_FILES: parquet-dataset: .*: no data files$/],
  ['a directory without data files given to meta (a dataset summary)', ['meta', dir], 1, /^parquetry: NO_FILES: parquet-dataset: .*: no data files$/],
  ['a directory given to a command that reads one file', ['pages', dir], 2, /^parquetry: '.*' is a directory: pages reads one file \(cat, head, tail, count, schema and meta read a directory as a dataset\)$/],
  ['an unknown read limit', ['cat', S, '--read-limit', 'maxbytes=5'], 2, /^parquetry: --read-limit takes NAME=N with NAME maxBytes, maxValues, maxRows, not 'maxbytes=5' \(did you mean 'maxBytes'\?\)$/],
  ['a read limit of 0', ['cat', S, '--read-limit', 'maxRows=0'], 2, /^parquetry: --read-limit maxRows takes a positive whole number, not '0'$/],
  ['a read over its limit names the option to raise it', ['cat', S, '--read-limit', 'maxRows=10'], 1, /^parquetry: LIMIT_EXCEEDED: .*over its maxRows of 10 \(raise it with --read-limit maxRows=\d+\)$/],
  ['meta --json --raw (JSON-safe values only)', ['meta', S, '--json', '--raw'], 2, /^parquetry: meta --json prints JSON-safe values; --raw is for the text form$/],
  ['not a Parquet file', ['meta', path.join(repo, 'README.md')], 1, /^parquetry: NOT_PARQUET: parquet-reader: the last 4 bytes are .*not a Parquet file$/],
];

/** [--where text, character (1-based) the message names, what it says]. */
const WHERE: [string, number, RegExp][] = [
  ["id > 3 and (name = 'x' or", 26, /expected a column name, found the end/],
  ["id > 3 and nam = 'x'", 12, /no column 'nam' \(did you mean 'name'\?\)/],
  ["id > 'x'", 6, /column 'id' \(INT64 INTEGER\) takes a whole number, not 'x'/],
  ["name = 'unterminated", 8, /a string is not closed \(strings are in single quotes; a quote inside is doubled: 'it''s'\)/],
  ['id = 1 id = 2', 8, /expected the end, found 'id' \(join conditions with 'and' or 'or'\)/],
  ['id >< 3', 5, /expected a value, found '<'/],
  ['(id = 1', 8, /expected '\)' to close the '\(' at character 1, found the end/],
  ['id = 1)', 7, /a closing parenthesis without an opening one/],
  ['name = x', 8, /expected a value, found 'x' \(text takes single quotes: 'x'\)/],
  ['maybe = null', 9, /a comparison with null matches nothing; write 'maybe is null' or 'is not null'/],
  ["name like 'a%'", 6, /'like' is not supported/],
  ['rec = 1', 1, /'rec' is a group; conditions take a leaf column: rec\.a, rec\.b/],
  ['pair.list.element = 1', 1, /column 'pair\.list\.element' is inside a list or map/],
  ['pair is null', 1, /'pair' is a list or map; conditions take columns with at most one value per row/],
  ["ts > '2026-02-30'", 6, /column 'ts' \(INT64 TIMESTAMP\): .*"2026-02-30" is not a calendar date; it takes a timestamp/],
  ["id > 3 and not (ts < '2026-13-01')", 22, /column 'ts' \(INT64 TIMESTAMP\): .*is not a calendar date/],
  ['even = 1', 8, /column 'even' \(BOOLEAN\) takes true or false, not 1/],
  ['', 1, /the expression is empty/],
  ['id = 1 && id = 2', 8, /unexpected character '&'/],
];

function oneLine(r: { out: string[]; err: string[] }): void {
  expect(r.out).toEqual([]);
  expect(r.err.length).toBe(1);
  expect(r.err[0]).not.toMatch(/\n|\s+at \S+ \(|TypeError|RangeError/);
}

describe('command-line errors: one line, the right exit code', () => {
  for (const [what, argv, code, message] of CASES) {
    test(what, async () => {
      const r = await run(...argv);
      expect(r.code).toBe(code);
      oneLine(r);
      expect(r.err[0]).toMatch(message);
    });
  }

  test('--where nesting past 1,000 levels is a usage error at the 1,001st, not a stack overflow (QA helper-84 F14)', async () => {
    for (const [where, at] of [[`${'('.repeat(5000)}id > 1${')'.repeat(5000)}`, 1001], [`${'not '.repeat(20000)}id > 1`, 4001]] as const) {
      const r = await run('count', S, '--where', where);
      expect(r.code).toBe(2);
      oneLine(r);
      expect(r.err[0]).toMatch(new RegExp(`^parquetry: --where at character ${at} .*: the expression nests 'not's and parentheses more than 1000 deep$`));
    }
    // 1,000 levels are read
    expect((await run('count', S, '--where', `${'not '.repeat(998)}id > 1`)).code).toBe(0);
  });

  for (const [where, at, message] of WHERE) {
    test(`--where ${JSON.stringify(where)}: character ${at}`, async () => {
      for (const argv of [['cat'], ['count'], ['head', '-f', 'csv']] as const) {
        const r = await run(...argv, S, '--where', where);
        expect(r.code).toBe(2);
        oneLine(r);
        // nothing printed before the error (QA helper-84 F9: the CSV header was)
        expect(r.out).toEqual([]);
        expect(r.err[0]).toMatch(new RegExp(`^parquetry: --where at character ${at} \\(`));
        expect(r.err[0]).toMatch(message);
      }
    });
  }

  test('a list of columns past twelve says how many more it left out (QA helper-85 F7: stats listed 12 silently)', async () => {
    const wide = path.join(dir, 'wide.parquet');
    const names = Array.from({ length: 20 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    await writeFile(wide, [Object.fromEntries(names.map((n, i) => [n, i]))], { schema: Object.fromEntries(names.map((n) => [n, field.int32()])) });
    const list = `c00, c01, c02, c03, c04, c05, c06, c07, c08, c09, c10, c11, … (8 more)`;
    for (const argv of [['stats', wide, 'zzzzzzzz'], ['pages', wide, 'zzzzzzzz'], ['bloom', wide, 'zzzzzzzz', '1'], ['head', wide, '--columns', 'zzzzzzzz']]) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      oneLine(r);
      expect(r.err[0], argv.join(' ')).toBe(`parquetry: ${argv[0] === 'head' ? '--columns' : argv[0]}: no column 'zzzzzzzz' (columns: ${list})`);
    }
    const w = await run('count', wide, '--where', 'zzzzzzzz = 1');
    expect(w.err[0]).toMatch(new RegExp(`no column 'zzzzzzzz' \\(columns: ${list.replace(/[.()]/g, '\\$&')}\\)$`));
  });

  test('help and --help print the usage, exit 0', async () => {
    for (const argv of [['help'], ['--help'], ['help', 'cat'], ['head', '--help'], ['stats', '-h']]) {
      const r = await run(...argv);
      expect(r.code).toBe(0);
      expect(r.out[0]).toMatch(/^usage: parquetry /);
    }
  });
});

describe.skipIf(!fs.existsSync('/dev/full'))('the bin script and its standard output', () => {
  test('a write error on stdout (a full disk: /dev/full) is one line on stderr and exit code 1, short output or long (QA helper-84 F11: exit 0 with nothing written, or a stack trace)', () => {
    const bin = path.join(repo, 'packages/parquetry/bin/parquetry.mjs');
    for (const argv of [['schema', S], ['cat', S, '-f', 'csv']]) {
      const fd = fs.openSync('/dev/full', 'w');
      try {
        const r = spawnSync(process.execPath, [bin, ...argv], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 60_000 });
        expect(r.status, argv.join(' ')).toBe(1);
        expect(r.stderr, argv.join(' ')).toMatch(/^parquetry: cannot write the output: ENOSPC: no space left on device, write\n$/);
      } finally {
        fs.closeSync(fd);
      }
    }
  });
});
