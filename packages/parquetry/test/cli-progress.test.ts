/**
 * The progress bar on the progress stream (stderr in the bin): drawn only when that stream is a terminal (or with
 * `--progress`), never with `--no-progress`; on a terminal redrawn in place (`\r` … erase-line) no more than ten
 * times a second, showing rows done / total, a bar and the rate, and erased at the end; elsewhere plain lines
 * without escape codes. The terminal is faked in-process (`progressIsTTY`) and the clock injected (`now`), so the
 * redraw interval is checked exactly, not timed. A directory read as a dataset shows the same bar over the dataset's
 * rows (from the files' footers).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { field } from '../src/index.js';
import { writeDataset, writeFile } from '../src/node.js';
import { runWith } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-progress-'));
const file = path.join(dir, 'p.parquet');
const csv = path.join(dir, 'p.csv');
const sales = path.join(dir, 'sales');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ROWS = 60_000;
beforeAll(async () => {
  function* rows() {
    for (let i = 0; i < ROWS; i++) yield { id: BigInt(i), name: `n${i % 1000}` };
  }
  await writeFile(file, rows(), { schema: { id: field.int64({ required: true }), name: field.string() }, rowGroupRows: 10_000 });
  fs.writeFileSync(csv, `id,name\n${Array.from({ length: ROWS }, (_, i) => `${i},n${i % 1000}`).join('\n')}\n`);
  // a dataset of the same rows: three part=… folders of two files of 10,000 rows each
  const parts = Array.from({ length: ROWS }, (_, i) => ({ id: i, part: ['a', 'b', 'c'][Math.floor(i / 20_000)]! }));
  await writeDataset(parts, sales, { partitionBy: ['part'], maxRowsPerFile: 10_000 });
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

  test('a dataset read: the bar over every file\'s rows, drawn in place on a terminal, forced elsewhere, ending at the total', async () => {
    expect(fs.readdirSync(sales, { recursive: true }).filter((f) => String(f).endsWith('.parquet')).length).toBe(6);
    // a terminal, the clock moving 60 ms a batch: forced, every other batch drawn; erased at the end
    const tty = await runWith(['cat', sales, '--columns', 'id', '--progress'], { progressIsTTY: true, now: clock(60).now });
    expect(tty.code).toBe(0);
    expect(tty.out.length).toBe(ROWS);
    const bars = tty.progress.slice(0, -1);
    expect(bars.length).toBeGreaterThanOrEqual(2);
    for (const b of bars) expect(b).toMatch(/^\r\[[█░]{24}\] +\d+%  [\d,]+ \/ 60,000 rows  [\d,]+ rows\/s  [\d.]+ MB read\x1b\[K$/);
    const done = bars.map((b) => Number(/ ([\d,]+) \/ /.exec(b)![1]!.replaceAll(',', '')));
    expect([...done].sort((a, b) => a - b)).toEqual(done);
    expect(tty.progress.at(-1)).toBe('\r\x1b[K');
    // not asked for on a terminal: it appears once the read has taken half a second
    const slow = await runWith(['cat', sales, '--columns', 'id'], { progressIsTTY: true, now: clock(150).now });
    expect(slow.progress.length).toBeGreaterThanOrEqual(2);
    // not a terminal, forced: plain lines, the last at the total and with the bytes read
    const plain = await runWith(['cat', sales, '--columns', 'id', '--progress'], { progressIsTTY: false, now: clock(300).now });
    for (const l of plain.progress) {
      expect(l).not.toMatch(ESC);
      expect(l).toMatch(/^ *\d+%  [\d,]+ \/ 60,000 rows  [\d,]+ rows\/s  [\d.]+ MB read\n$/);
    }
    const last = /^100%  60,000 \/ 60,000 rows  [\d,]+ rows\/s  ([\d.]+) MB read\n$/.exec(plain.progress.at(-1)!);
    expect(Number(last?.[1])).toBeGreaterThan(0);
  });

  test('a dataset read: count, tail and head end at their totals; files a partition filter skips count as passed', async () => {
    const count = await runWith(['count', sales, '--where', "part = 'b'", '--progress'], { progressIsTTY: false, now: clock(300).now });
    expect(count.out).toEqual(['20000']);
    expect(count.progress.at(-1)).toMatch(/^100%  60,000 \/ 60,000 rows /);
    const tail = await runWith(['tail', sales, '-n', '3', '--progress'], { progressIsTTY: false, now: clock(300).now });
    expect(tail.out.length).toBe(3);
    expect(tail.progress.at(-1)).toMatch(/^100%  60,000 \/ 60,000 rows /);
    // head without a filter reads only its rows: the bar's total is them
    const head = await runWith(['head', sales, '-n', '5', '--progress'], { progressIsTTY: false, now: clock(300).now });
    expect(head.out.length).toBe(5);
    expect(head.progress.at(-1)).toMatch(/^100%  5 \/ 5 rows /);
    // the last line once: finishing does not repeat a line that already reported the end
    for (const r of [count, tail, head]) expect(r.progress.filter((l) => l.startsWith('100%')).length).toBe(1);
  });

  test('a dataset read: nothing with --no-progress on a terminal, nor off a terminal without --progress', async () => {
    for (const argv of [['cat', sales, '--columns', 'id'], ['count', sales, '--where', 'id >= 0'], ['tail', sales]]) {
      expect((await runWith([...argv, '--no-progress'], { progressIsTTY: true, now: clock(300).now })).progress).toEqual([]);
      expect((await runWith(argv, { progressIsTTY: false, now: clock(300).now })).progress).toEqual([]);
    }
  });
});
