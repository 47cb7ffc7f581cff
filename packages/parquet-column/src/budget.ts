/**
 * Read budgets: how many rows, values and bytes one read may materialise. Every count a file states is untrusted,
 * and a few bytes can claim (and, with RLE runs or a compressor's back-references, honestly encode) billions of
 * values; a budget is charged before each allocation sized from such a count, so an oversized claim is a typed
 * `LIMIT_EXCEEDED` instead of an allocation that takes the process down.
 *
 * What is charged: the decompressed bytes of each page (before decompressing), the level arrays of each data page
 * (4 bytes per level per array) and its value arrays (the physical width per value; byte arrays 4 bytes of offset
 * per value; their bytes, viewed in or copied out of the decompressed page, are covered by the page's charge, and a
 * whole-chunk read's bytes reserved ahead of its pages are charged beyond what the chunk's bytes left could hold),
 * all before they are allocated; rows before a row group (or batch) is assembled. Values are level entries (values and nulls).
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';

/** Caps on what one read may materialise; any left out takes its default. */
export interface ReadLimits {
  /** Rows one read may assemble. */
  maxRows?: number | undefined;
  /** Values (level entries: values and nulls) one read may decode. */
  maxValues?: number | undefined;
  /** Bytes one read may materialise: decompressed pages, level arrays and value arrays. */
  maxBytes?: number | undefined;
}

/** The floor of the default row budget (2^20 rows). */
export const DEFAULT_MIN_ROWS = 1 << 20;
/** The floor of the default value budget (2^23 values). */
export const DEFAULT_MIN_VALUES = 1 << 23;
/** The floor of the default byte budget (128 MiB). */
export const DEFAULT_MIN_BYTES = 128 * 1024 * 1024;
/** Rows per byte of file the default row budget allows above its floor. */
export const DEFAULT_ROWS_PER_BYTE = 4;
/** Values per byte of file the default value budget allows above its floor. */
export const DEFAULT_VALUES_PER_BYTE = 16;
/** Bytes per byte of file the default byte budget allows above its floor. */
export const DEFAULT_BYTES_PER_BYTE = 64;

/**
 * The default limits of a read of a file of `fileSize` bytes: the larger of a floor and a multiple of the file's
 * size — rows `max(2^20, 4 × size)`, values `max(2^23, 16 × size)`, bytes `max(128 MiB, 64 × size)`. A file under
 * 1 MB therefore never makes a read allocate much more than 128 MiB of decoded data unless the caller raises the
 * limits; larger files scale with what their bytes can reasonably hold.
 * @param fileSize - the file's size in bytes.
 * @param limits - caps given by the caller (each replaces its default).
 * @returns every limit.
 */
export function defaultLimits(fileSize: number, limits: ReadLimits = {}): Required<{ [K in keyof ReadLimits]: number }> {
  const size = Number.isFinite(fileSize) && fileSize > 0 ? fileSize : 0;
  return {
    maxRows: limits.maxRows ?? Math.max(DEFAULT_MIN_ROWS, DEFAULT_ROWS_PER_BYTE * size),
    maxValues: limits.maxValues ?? Math.max(DEFAULT_MIN_VALUES, DEFAULT_VALUES_PER_BYTE * size),
    maxBytes: limits.maxBytes ?? Math.max(DEFAULT_MIN_BYTES, DEFAULT_BYTES_PER_BYTE * size),
  };
}

/**
 * Checks a caller's `limits` option.
 * @param limits - the option (undefined: none given).
 * @param what - the option's name, for messages.
 * @throws ParquetError `INVALID_ARGUMENT` for a limit that is not a positive number.
 */
export function checkLimits(limits: ReadLimits | undefined, what = 'limits'): void {
  if (limits === undefined) return;
  if (limits === null || typeof limits !== 'object') throw new ParquetError('INVALID_ARGUMENT', `parquet-column: ${what} must be an object of { maxRows, maxValues, maxBytes }, got ${String(limits)}`);
  for (const k of ['maxRows', 'maxValues', 'maxBytes'] as const) {
    const v = limits[k];
    if (v !== undefined && !(typeof v === 'number' && v > 0)) throw new ParquetError('INVALID_ARGUMENT', `parquet-column: ${what}.${k} must be a positive number (Infinity for no limit), got ${String(v)}`);
  }
}

/**
 * What one read has materialised, against its limits. Charged before each allocation; {@link ReadBudget.reset}
 * starts over where a streaming read lets go of what it handed out.
 *
 * ```ts
 * const budget = new ReadBudget(defaultLimits(file.source.byteLength, { maxBytes: 2 ** 32 }));
 * ```
 */
export class ReadBudget {
  /** Rows charged so far. */
  rows = 0;
  /** Values charged so far. */
  values = 0;
  /** Bytes charged so far. */
  bytes = 0;

  /** @param limits - the caps (see {@link defaultLimits}). */
  constructor(readonly limits: Required<{ [K in keyof ReadLimits]: number }>) {}

  /**
   * Charges values and bytes about to be allocated.
   * @param values - level entries about to be decoded.
   * @param bytes - bytes about to be allocated.
   * @param where - what is being decoded (row group, column, page), for the message.
   * @throws ParquetError `LIMIT_EXCEEDED` naming the limit, the amounts and how to raise it; nothing is charged then.
   */
  charge(values: number, bytes: number, where: string): void {
    const v = this.values + values;
    const b = this.bytes + bytes;
    if (v > this.limits.maxValues) this.exceeded('maxValues', v, this.limits.maxValues, `${values} values`, where);
    if (b > this.limits.maxBytes) this.exceeded('maxBytes', b, this.limits.maxBytes, `${bytes} bytes`, where);
    this.values = v;
    this.bytes = b;
  }

  /**
   * Charges rows about to be assembled.
   * @param rows - the rows.
   * @param where - what is being assembled, for the message.
   * @throws ParquetError `LIMIT_EXCEEDED`.
   */
  chargeRows(rows: number, where: string): void {
    const r = this.rows + rows;
    if (r > this.limits.maxRows) this.exceeded('maxRows', r, this.limits.maxRows, `${rows} rows`, where);
    this.rows = r;
  }

  /** Starts over (a streaming read handed out what it had materialised). */
  reset(): void {
    this.rows = 0;
    this.values = 0;
    this.bytes = 0;
  }

  private exceeded(limit: string, total: number, max: number, adding: string, where: string): never {
    throw new ParquetError(
      'LIMIT_EXCEEDED',
      `parquet-column: ${where}: ${adding} would bring the read to ${total}, over its ${limit} of ${max} (raise it with the \`limits\` option, e.g. { ${limit}: ${Math.min(2 ** 53, 2 ** Math.ceil(Math.log2(total + 1)))} })`,
    );
  }
}
