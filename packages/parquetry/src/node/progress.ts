/**
 * The progress bar of the command line, on stderr, for long reads (`cat`, `head`, `tail`, `count`) and for
 * `convert` / `rewrite`:
 *
 * ```text
 * [██████████████░░░░░░░░░░]  61%  612,000 / 1,000,000 rows  250,000 rows/s  12.3 MB read
 * ```
 *
 * On a terminal it is redrawn in place (`\r`, then erase to the end of the line) at most ten times a second, shown
 * only once the work has taken half a second (at once with `--progress`), and erased when the work ends. When the
 * progress stream is not a terminal nothing is shown unless `--progress` is given; then a plain line (no bar, no
 * escape codes) is written at most once a second. A convert of a text input counts bytes of the input instead of
 * rows (its row count is known only at the end).
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (rows counted over the file's row groups).
 * @module
 */

/** Where progress goes. */
export interface ProgressTarget {
  /** Receives progress text (with `\r` and an erase-line escape on a terminal). */
  readonly out: (text: string) => void;
  /** Whether it is a terminal. */
  readonly tty: boolean;
  /** Shown at once (`--progress`), not only for work that takes a while. */
  readonly forced: boolean;
  /** The clock in milliseconds (default `performance.now`). */
  readonly now?: (() => number) | undefined;
}

/** What a bar counts: rows of the file, or bytes of the input (a convert of CSV or JSON). */
export type ProgressUnit = 'rows' | 'bytes';

const WIDTH = 24;
/** Milliseconds between redraws on a terminal (ten a second) and between lines elsewhere. */
const TTY_INTERVAL = 100;
const LINE_INTERVAL = 1000;
/** Milliseconds before a bar that was not asked for appears. */
const DELAY = 500;

const number = (n: number): string => Math.round(n).toLocaleString('en-US');
const mb = (n: number): string => (n / 1e6).toFixed(1);

/** A progress bar over a number of rows or bytes. */
export class ProgressBar {
  private readonly now: () => number;
  private readonly start: number;
  private last = -Infinity;
  private shown = false;

  /**
   * A bar that has drawn nothing yet.
   * @param target - where the bar goes.
   * @param total - rows (or bytes) the work covers.
   * @param unit - what `total` counts.
   */
  constructor(
    private readonly target: ProgressTarget,
    private readonly total: number,
    private readonly unit: ProgressUnit = 'rows',
  ) {
    this.now = target.now ?? (() => performance.now());
    this.start = this.now();
  }

  /**
   * The text of the bar (without the terminal's escapes).
   * @param done - rows (or bytes) done.
   * @param bytes - bytes read so far (rows written, for a bar over bytes).
   * @param at - the time, from the bar's clock.
   * @returns the line.
   */
  text(done: number, bytes: number, at: number = this.now()): string {
    const frac = this.total > 0 ? Math.min(1, Math.max(0, done / this.total)) : 1;
    const full = Math.round(frac * WIDTH);
    const bar = this.target.tty ? `[${'█'.repeat(full)}${'░'.repeat(WIDTH - full)}] ` : '';
    const secs = Math.max((at - this.start) / 1000, 1e-3);
    const pct = String(Math.floor(frac * 100)).padStart(3);
    if (this.unit === 'bytes') return `${bar}${pct}%  ${mb(done)} / ${mb(this.total)} MB  ${number(bytes)} rows  ${mb(done / secs)} MB/s`;
    return `${bar}${pct}%  ${number(done)} / ${number(this.total)} rows  ${number(done / secs)} rows/s  ${mb(bytes)} MB read`;
  }

  /**
   * Reports the work done so far; the bar is drawn when it is time to (not before half a second unless forced, then
   * at most ten times a second on a terminal and once a second elsewhere).
   * @param done - rows (or bytes) done so far.
   * @param bytes - bytes read so far (rows written, for a bar over bytes); asked only when the bar is drawn.
   */
  update(done: number, bytes: () => number): void {
    const now = this.now();
    if (!this.target.forced && now - this.start < DELAY) return;
    if (now - this.last < (this.target.tty ? TTY_INTERVAL : LINE_INTERVAL)) return;
    this.last = now;
    this.shown = true;
    this.lastDone = done;
    const line = this.text(done, bytes(), now);
    this.target.out(this.target.tty ? `\r${line}\x1b[K` : `${line}\n`);
  }

  /**
   * Ends the bar: a terminal's line is erased (nothing stays behind); elsewhere a last line is written when any
   * was.
   * @param done - rows (or bytes) done.
   * @param bytes - bytes read (rows written, for a bar over bytes).
   */
  finish(done: number, bytes: number): void {
    if (!this.shown) return;
    if (this.target.tty) this.target.out('\r\x1b[K');
    // elsewhere the last line, unless the last one written already said it
    else if (done !== this.lastDone) this.target.out(`${this.text(done, bytes)}\n`);
  }

  /** The work done the last line written reported. */
  private lastDone = -1;
}
