/**
 * The one error type every Parquetry package throws for bad input or misuse.
 *
 * Consumers test with {@link isParquetError} (a structural check), never
 * `instanceof`, which breaks when two copies of a package are installed.
 */
export class ParquetError extends Error {
  /** Always `'ParquetError'`. */
  override readonly name = 'ParquetError';
  /** A stable machine-readable code, e.g. `THRIFT_TRUNCATED`, `CORRUPT_PAGE`. */
  readonly code: string;
  /** Byte offset in the input that the error refers to, when known. */
  readonly offset: number | undefined;

  /**
   * @param code - stable machine-readable code.
   * @param message - `package: what, where, expected vs actual`.
   * @param offset - byte offset the error refers to, when known.
   * @param options - standard `ErrorOptions` (`cause`).
   */
  constructor(code: string, message: string, offset?: number, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.offset = offset;
  }
}

/**
 * True when `e` is a {@link ParquetError} from any copy of any Parquetry package.
 * @param e - any thrown value.
 * @returns whether it has the ParquetError shape (`name` and string `code`).
 */
export function isParquetError(e: unknown): e is ParquetError {
  return e instanceof Error && e.name === 'ParquetError' && typeof (e as { code?: unknown }).code === 'string';
}
