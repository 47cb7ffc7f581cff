/**
 * A progress bar on stderr for reads of many rows: `[██████░░░░] 61%  612,000 / 1,000,000 rows  12.3 MB read`,
 * redrawn in place (`\r`) at most ten times a second, shown only once a read has taken half a second (or at once with
 * `--progress`) and erased when the read ends. When the progress stream is not a terminal and `--progress` is given,
 * it writes a line a second instead.
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
  /** Shown at once (`--progress`), not only for reads that take a while. */
  readonly forced: boolean;
}

const WIDTH = 24;
const number = (n: number): string => n.toLocaleString('en-US');

/** A progress bar over a number of rows. */
export class ProgressBar {
  private readonly start = performance.now();
  private last = -Infinity;
  private shown = false;

  /**
   * A bar that has drawn nothing yet.
   * @param target - where the bar goes.
   * @param total - rows the read covers.
   */
  constructor(
    private readonly target: ProgressTarget,
    private readonly total: number,
  ) {}

  private text(done: number, bytes: number): string {
    const frac = this.total > 0 ? Math.min(1, done / this.total) : 1;
    const full = Math.round(frac * WIDTH);
    const bar = this.target.tty ? `[${'█'.repeat(full)}${'░'.repeat(WIDTH - full)}] ` : '';
    return `${bar}${String(Math.floor(frac * 100)).padStart(3)}%  ${number(done)} / ${number(this.total)} rows  ${(bytes / 1e6).toFixed(1)} MB read`;
  }

  /**
   * Reports rows done so far (drawn when it is time to).
   * @param done - rows covered so far.
   * @param bytes - the bytes read so far (asked only when the bar is drawn).
   */
  update(done: number, bytes: () => number): void {
    const now = performance.now();
    if (!this.target.forced && now - this.start < 500) return;
    if (now - this.last < (this.target.tty ? 100 : 1000)) return;
    this.last = now;
    this.shown = true;
    this.target.out(this.target.tty ? `\r${this.text(done, bytes())}\x1b[K` : `${this.text(done, bytes())}\n`);
  }

  /**
   * Ends the bar: a terminal's line is erased; elsewhere a last line is written if any was.
   * @param done - rows covered.
   * @param bytes - bytes read.
   */
  finish(done: number, bytes: number): void {
    if (!this.shown) return;
    this.target.out(this.target.tty ? '\r\x1b[K' : `${this.text(done, bytes)}\n`);
  }
}
