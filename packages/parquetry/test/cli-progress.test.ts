/**
 * The progress bar on the progress stream (stderr in the bin): drawn only when that stream is a terminal (or with
 * `--progress`), never with `--no-progress`; on a terminal redrawn in place (`\r` … erase-line) no more than ten
 * times a second, showing rows done / total, a bar and the rate, and erased at the end; elsewhere plain lines
 * without escape codes. The terminal is faked in-process (`progressIsTTY`) and the clock injected (`now`), so the
 * redraw interval is checked exactly, not timed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { field } from '../src/index.js';
import { writeFile } from '../src/node.js';
import { runWith } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-progress-'));
const file = path.join(dir, 'p.parquet');
const csv = path.join(dir, 'p.csv');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ROWS = 60_000;
beforeAll(async () => {
  function* rows() {
    for (let i = 0; i < ROWS; i++) yield { id: BigInt(i), name: `n${i % 1000}` };
  }
  await writeFile(file, rows(), { schema: { id: field.int64({ required: true }), name: field.string() }, rowGroupRows: 10_000 });
  fs.writeFileSync(csv, `id,name\n${Array.from({ length: ROWS }, (_, i) => `${i},n${i % 1000}`).join('\n')}\n`);
});

/** A clock that moves `step` milliseconds each time it is read, with the times the bar was drawn at. */
function clock(step: number): { now: () => number; t: () => number } {
  let t = 0;
  return { now: () => (t += step), t: () => t };
}

// eslint-disable-next-line no-control-regex
const ESC = /\x1b|\r/;

describe('progress bar', () => {
  test('on a terminal: drawn in place with rows done / total, a bar and the rate, at most ten times a second, erased at the end', async () => {
    // six batches of 10,000 rows, the clock moving 150 ms a batch: the bar appears once half a second has passed
    const slow = await runWith(['cat', file, '--columns', 'id'], { progressIsTTY: true, now: clock(150).now });
    expect(slow.out.length).toBe(ROWS);
    expect(slow.progress.length).toBe(4);
    // forced, the clock moving 60 ms a batch: every other batch is drawn (100 ms apart at least)
    const c = clock(60);
    const draws: { text: string; at: number }[] = [];
    const r = await runWith(['cat', file, '--columns', 'id', '--progress'], { progressIsTTY: true, now: c.now, progress: (text) => draws.push({ text, at: c.t() }) });
    expect(r.code).toBe(0);
    expect(r.out.length).toBe(ROWS);
    expect(draws.length).toBe(4);
    const bars = draws.slice(0, -1);
    for (const d of bars) {
      expect(d.text).toMatch(/^\r\[[█░]{24}\] +\d+%  [\d,]+ \/ 60,000 rows  [\d,]+ rows\/s  [\d.]+ MB read\x1b\[K$/);
    }
    for (let k = 1; k < bars.length; k++) expect(bars[k]!.at - bars[k - 1]!.at).toBeGreaterThanOrEqual(100);
    // the rows done only grow; the last line erases the bar
    const done = bars.map((d) => Number(/ ([\d,]+) \/ /.exec(d.text)![1]!.replaceAll(',', '')));
    expect([...done].sort((a, b) => a - b)).toEqual(done);
    expect(draws.at(-1)!.text).toBe('\r\x1b[K');
  });

  test('a fast read on a terminal shows nothing (the bar waits half a second); --progress shows it at once', async () => {
    const quick = await runWith(['cat', file, '--columns', 'id'], { progressIsTTY: true, now: clock(1).now });
    expect(quick.progress).toEqual([]);
    const forced = await runWith(['cat', file, '--columns', 'id', '--progress'], { progressIsTTY: true, now: clock(1).now });
    expect(forced.progress.length).toBeGreaterThanOrEqual(2);
    expect(forced.progress.at(-1)).toBe('\r\x1b[K');
  });

  test('not a terminal: nothing, and with --progress plain lines without escape codes or a bar', async () => {
    const none = await runWith(['cat', file, '--columns', 'id'], { progressIsTTY: false, now: clock(300).now });
    expect(none.progress).toEqual([]);
    const forced = await runWith(['cat', file, '--columns', 'id', '--progress'], { progressIsTTY: false, now: clock(300).now });
    expect(forced.progress.length).toBeGreaterThanOrEqual(2);
    for (const line of forced.progress) {
      expect(line).not.toMatch(ESC);
      expect(line).not.toContain('█');
      expect(line).toMatch(/^ *\d+%  [\d,]+ \/ 60,000 rows  [\d,]+ rows\/s  [\d.]+ MB read\n$/);
    }
    expect(forced.progress.at(-1)).toMatch(/^100%  60,000 \/ 60,000 rows/);
    // the output itself never carries progress
    for (const l of forced.out.slice(0, 5)) expect(l).not.toMatch(ESC);
  });

  test('--no-progress suppresses the bar on a terminal, for reads and for count', async () => {
    expect((await runWith(['cat', file, '--columns', 'id', '--no-progress'], { progressIsTTY: true, now: clock(300).now })).progress).toEqual([]);
    expect((await runWith(['count', file, '--exact', '--no-progress'], { progressIsTTY: true, now: clock(300).now })).progress).toEqual([]);
    const count = await runWith(['count', file, '--exact'], { progressIsTTY: true, now: clock(300).now });
    expect(count.out).toEqual([String(ROWS)]);
    expect(count.progress.length).toBeGreaterThanOrEqual(2);
    expect(count.progress.at(-1)).toBe('\r\x1b[K');
  });

  test('convert and rewrite: a bar over the input bytes (CSV) or rows (Parquet), erased, then a summary line', async () => {
    const conv = await runWith(['convert', csv, path.join(dir, 'c.parquet'), '--progress'], { progressIsTTY: true, now: clock(150).now });
    expect(conv.code).toBe(0);
    const bars = conv.progress.slice(0, -2);
    expect(bars.length).toBeGreaterThanOrEqual(1);
    for (const b of bars) expect(b).toMatch(/^\r\[[█░]{24}\] +\d+%  [\d.]+ \/ [\d.]+ MB  [\d,]+ rows  [\d.]+ MB\/s\x1b\[K$/);
    expect(conv.progress.at(-2)).toBe('\r\x1b[K');
    expect(conv.progress.at(-1)).toMatch(/^60,000 rows, [\d.]+ MB read, [\d.]+ MB\/s; wrote [\d.]+ MB\n$/);

    const re = await runWith(['rewrite', file, path.join(dir, 'r.parquet'), '--progress'], { progressIsTTY: false, now: clock(600).now });
    expect(re.code).toBe(0);
    for (const l of re.progress) expect(l).not.toMatch(ESC);
    expect(re.progress.slice(0, -1).every((l) => / \/ 60,000 rows /.test(l))).toBe(true);
    expect(re.progress.at(-1)).toMatch(/^60,000 rows, .*; wrote [\d.]+ MB\n$/);
  });
});
