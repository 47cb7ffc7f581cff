/**
 * Byte sources: where a Parquet file's bytes come from. The reader asks only for the ranges it needs
 * (the footer at the end of the file, then the column chunks it will decode: see the file layout in
 * https://github.com/apache/parquet-format/blob/master/README.md#file-format), merging nearby ranges into one request.
 *
 * The HTTP source ({@link fetchSource}) uses range requests (RFC 9110 §14, https://www.rfc-editor.org/rfc/rfc9110#section-14):
 * its first request is a suffix range (`Range: bytes=-N`) that returns the file's tail, where the footer is, together
 * with the file size; the tail is kept and serves every later read it covers. Conditional requests (RFC 9110 §13:
 * `If-Match`, `If-Unmodified-Since`) and the validators of every answer make a file replaced between requests an error
 * rather than a mix of two files.
 *
 * @module
 */
import { ParquetError, isParquetError, type OptionRules } from '@parquetry/thrift-compact';
import { checkReadOptions } from './read-options.js';
import { DEFAULT_TAIL_GUESS } from './footer.js';
import { loadHttpRare } from './optional.js';

/** Random access to a file's bytes. `read` may be called concurrently. */
export interface ByteSource {
  /** Total size of the file in bytes. */
  readonly byteLength: number;
  /**
   * Returns bytes `[start, end)`.
   * @param start - first byte (inclusive).
   * @param end - last byte (exclusive), at most `byteLength`.
   */
  read(start: number, end: number): Promise<Uint8Array>;
  /**
   * Optional: the source holds the bytes `[heldFrom, byteLength)` in memory (an HTTP source keeps the tail its first
   * request returned), so a read inside them costs no request and a read reaching into them fetches only the bytes
   * before `heldFrom`. The reader's scan statistics count no request and no bytes for held bytes. Absent: nothing held.
   */
  readonly heldFrom?: number;
  /**
   * Optional: the requests the source made on its own before any `read` (an HTTP source's first, suffix-range request,
   * which fetched the tail), reported once: later calls return zeros. The reader counts them as footer requests.
   * @returns the requests made and the file bytes they fetched.
   */
  takeUncounted?(): { requests: number; bytes: number };
}

/**
 * A source over bytes already in memory (no copies: reads return views).
 * @param bytes - the whole file.
 * @returns a {@link ByteSource}.
 */
export function bufferSource(bytes: Uint8Array | ArrayBuffer): ByteSource {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return {
    byteLength: u8.length,
    read(start, end) {
      checkRange(start, end, u8.length);
      return Promise.resolve(u8.subarray(start, end));
    },
  };
}

/**
 * A source over a `Blob` or a browser `File` (from an `<input type="file">`, a drop, `fs.openAsBlob` in Node): each read
 * slices the blob and reads only that slice.
 * @param blob - the file's bytes.
 * @returns a {@link ByteSource}; its reads throw ParquetError `SOURCE_ERROR` (the blob could not be read, e.g. a
 *   `File` changed or removed on disk since it was picked: the browser's `NotReadableError` as `cause`),
 *   `SOURCE_CHANGED` (fewer bytes than the blob's size promised), `OUT_OF_BOUNDS`.
 */
export function blobSource(blob: Blob): ByteSource {
  const size = blob.size;
  const name = (blob as { name?: unknown }).name;
  const what = typeof name === 'string' ? `file ${JSON.stringify(name)}` : 'blob';
  return {
    byteLength: size,
    async read(start, end) {
      checkRange(start, end, size);
      let buf: ArrayBuffer;
      try {
        buf = await blob.slice(start, end).arrayBuffer();
      } catch (e) {
        throw new ParquetError('SOURCE_ERROR', `parquet-reader: reading bytes [${start}, ${end}) of the ${size}-byte ${what} failed: ${describe(e)}`, start, { cause: e });
      }
      if (buf.byteLength !== end - start) {
        throw new ParquetError('SOURCE_CHANGED', `parquet-reader: reading bytes [${start}, ${end}) of the ${size}-byte ${what} returned ${buf.byteLength} bytes: it changed since it was opened`, start);
      }
      return new Uint8Array(buf);
    },
  };
}

/**
 * Reads `[start, end)` from any byte source (the reader's only way to call one), so that whatever a source does
 * wrong is a ParquetError: a ParquetError it throws passes through; anything else it throws becomes `ABORTED` (an
 * `AbortError`), `TIMEOUT` (a `TimeoutError`) or `SOURCE_ERROR`, the original as `cause`; an answer that is not a
 * `Uint8Array` of exactly `end - start` bytes is `SOURCE_ERROR`.
 * @param source - the byte source.
 * @param start - first byte.
 * @param end - end (exclusive).
 * @returns the bytes.
 * @throws ParquetError as described, and the source's own ParquetErrors.
 */
export async function readSource(source: ByteSource, start: number, end: number): Promise<Uint8Array> {
  let bytes: unknown;
  try {
    bytes = await source.read(start, end);
  } catch (e) {
    if (isParquetError(e)) throw e;
    const name = (e as { name?: unknown } | null)?.name;
    const code = name === 'AbortError' ? 'ABORTED' : name === 'TimeoutError' ? 'TIMEOUT' : 'SOURCE_ERROR';
    throw new ParquetError(code, `parquet-reader: the byte source failed reading bytes [${start}, ${end}): ${describe(e)}`, start, { cause: e });
  }
  if (!(bytes instanceof Uint8Array) || bytes.length !== end - start) {
    const got = bytes instanceof Uint8Array ? `${bytes.length} bytes` : `a ${bytes === null ? 'null' : typeof bytes}`;
    throw new ParquetError('SOURCE_ERROR', `parquet-reader: the byte source returned ${got} for bytes [${start}, ${end}), expected a Uint8Array of ${end - start} bytes`, start);
  }
  return bytes;
}

/**
 * An error's name and message for a ParquetError's message.
 * @internal
 */
export function describe(e: unknown): string {
  if (e instanceof Error || (typeof e === 'object' && e !== null && 'message' in e)) {
    const { name, message } = e as { name?: unknown; message?: unknown };
    const causeMsg = (e as { cause?: { message?: unknown } }).cause?.message;
    return `${typeof name === 'string' ? name : 'Error'}: ${String(message)}${typeof causeMsg === 'string' ? ` (${causeMsg})` : ''}`;
  }
  return String(e);
}

/** Options of {@link fetchSource}. */
export interface FetchSourceOptions {
  /**
   * The file size, when known: no request is made up front, and the first read reaching the end of the file (the
   * footer's) is kept as the tail, as the suffix request's answer would be.
   */
  byteLength?: number;
  /** Extra request headers (authorisation, …). */
  headers?: Record<string, string>;
  /** A `fetch` implementation (default `globalThis.fetch`). */
  fetch?: typeof globalThis.fetch;
  /**
   * Bytes asked for by the first, suffix-range request (default 64 KiB, the reader's default `tailGuess`): the
   * footer is read from them, and so is everything else they cover (a file this small costs one request in all).
   */
  tailGuess?: number;
  /** Aborts every request of this source, running or later: they fail with `ABORTED`. */
  signal?: AbortSignal;
  /**
   * Milliseconds one request may take, from sending it to the last byte of its answer (default 30,000; 0: no limit).
   * A request that takes longer is abandoned and retried like a dropped connection; the last one fails with `TIMEOUT`.
   */
  timeout?: number;
  /**
   * Retries of a request after a transient failure: HTTP 408, 429, 5xx (except 501 and 505), a dropped connection or
   * network error, a timeout (default 3). Other 4xx answers are never retried.
   */
  retries?: number;
  /**
   * Base delay of the exponential backoff in milliseconds (default 100): retry k waits a random time between half and
   * all of `retryDelay × 2^k`, at most `maxRetryDelay`. A `Retry-After` header (429, 503) sets the wait instead.
   */
  retryDelay?: number;
  /**
   * Longest wait before a retry in milliseconds (default 10,000). A server asking (`Retry-After`) for a longer wait
   * fails the request at once with `HTTP_ERROR`.
   */
  maxRetryDelay?: number;
  /**
   * Largest file kept whole in memory when the server ignores `Range` and answers with the whole file (HTTP 200):
   * up to this size the body is kept and every read is served from it; a larger file fails with
   * `RANGE_NOT_SUPPORTED` without downloading it (default 32 MiB; 0: never keep a whole body).
   */
  maxWholeBody?: number;
  /**
   * Detect a file changed between requests (default true): later requests carry `If-Match` (a strong ETag) or
   * `If-Unmodified-Since` (a Last-Modified date), and every answer's ETag and Last-Modified are compared with the
   * first ones'. `false` drops both (for servers behind a load balancer whose nodes disagree on ETags, or to avoid
   * CORS preflights for `If-Match`). The file size in `Content-Range` is checked either way.
   */
  detectChanges?: boolean;
  /**
   * Check the leading magic whenever an answer holds the file's first bytes (the opening request of a small file, a
   * server answering with the whole file, a read from byte 0): anything but "PAR1" or "PARE" there is `NOT_PARQUET`
   * (default true; `false` for sources of other files).
   */
  checkMagic?: boolean;
}

/** A {@link ByteSource} over HTTP range requests, from {@link fetchSource}. */
export interface HttpSource extends ByteSource {
  /** The file's URL. */
  readonly url: string;
  /** Start of the bytes held in memory (`byteLength` when none): the tail, or 0 when the whole file is held. */
  readonly heldFrom: number;
  /** HTTP requests sent so far: every attempt (retries, HEAD and refused requests included). */
  readonly requestsSent: number;
  /** Body bytes received so far. */
  readonly bytesReceived: number;
  /** The ETag the file was first seen with (undefined when the server sends none or does not expose it). */
  readonly etag: string | undefined;
  /**
   * The opening suffix request (when it fetched bytes), reported once; later calls return zeros.
   * @returns the requests made and the file bytes they fetched.
   */
  takeUncounted(): { requests: number; bytes: number };
}

/**
 * A source over HTTP range requests. Without `byteLength`, the first request is a suffix range
 * (`Range: bytes=-tailGuess`) answered with the file's tail and, in `Content-Range`, its size (no HEAD request); the
 * tail is kept and serves the footer and any later read it covers. A server answering that request with the whole
 * file (200) has the whole file kept (up to `maxWholeBody`); a server refusing suffix ranges (416, 400, 501) or hiding
 * `Content-Range` (a cross-origin answer without `Access-Control-Expose-Headers: Content-Range`) costs a HEAD request
 * for the size. Reads are retried with backoff on transient failures, bounded by `timeout`, cancelled by `signal`,
 * and checked against the file's ETag, Last-Modified and size.
 * @param url - the file's URL.
 * @param options - size, headers, fetch implementation, tail guess, abort signal, timeout, retries, limits.
 * @returns an {@link HttpSource}, holding the tail when the first request fetched it.
 * @throws ParquetError `HTTP_ERROR` (a refused request, e.g. 404, or a transient failure after the retries, or no way
 *   to learn the size), `NETWORK_ERROR` (connection failures after the retries), `TIMEOUT`, `ABORTED`,
 *   `RANGE_NOT_SUPPORTED` (a file larger than `maxWholeBody` from a server ignoring ranges), `NOT_PARQUET` (with
 *   `checkMagic`, an answer holding the file's start without the magic), `INVALID_OPTION`;
 *   its reads throw these and `SOURCE_CHANGED` (the file changed since the first request), `OUT_OF_BOUNDS`.
 */
export async function fetchSource(url: string, options: FetchSourceOptions = {}): Promise<HttpSource> {
  // the names, and the kinds of the other values: the numbers are checked with their ranges by Http
  await checkReadOptions(options, FETCH_RULES, 'parquet-reader: fetchSource', 'INVALID_OPTION');
  const src = new Http(url, options);
  await src.open(options.byteLength);
  return src;
}

/**
 * Options of {@link fetchSource} (`FetchSourceOptions`): their names and the kinds of the values that are not numbers
 * (the numbers are checked with their ranges when the source is made). Exported as `fetchOptionRules`, for a package
 * that takes these options to pass them on and checks its own list.
 */
export const FETCH_RULES: OptionRules = {
  byteLength: 'any',
  headers: 'object',
  fetch: 'function',
  tailGuess: 'any',
  signal: 'object',
  timeout: 'any',
  retries: 'any',
  retryDelay: 'any',
  maxRetryDelay: 'any',
  maxWholeBody: 'any',
  detectChanges: 'boolean',
  checkMagic: 'boolean',
};

/**
 * A failure worth retrying (a transient status or a short body), thrown by an answer's handler.
 * @internal
 */
export class Transient {
  constructor(
    readonly message: string,
    /** The answer's `Retry-After` header. */
    readonly retryAfter?: string | null,
  ) {}
}

/**
 * An attempt that failed in a way a retry may mend: its error code, message and cause, and the server's
 * `Retry-After`.
 * @internal
 */
export class Failure {
  constructor(
    readonly code: string,
    readonly detail: string,
    readonly cause: unknown,
    readonly retryAfter: string | null | undefined,
  ) {}
}

/**
 * What the opening suffix request learnt.
 * @internal
 */
export type Opening =
  | { kind: 'tail'; size: number | undefined; body: Uint8Array }
  | { kind: 'whole'; body: Uint8Array }
  | { kind: 'size'; size: number }
  | { kind: 'fallback'; why: string; ignoredRange?: true };

const STRONG_ETAG = /^"[^"]*"$/;

/**
 * A failure found in an answer, explained by http-rare.ts ({@link Http.fail}): the suffix request's Content-Range is
 * not the file's tail (`tail`) or its body longer than asked (`tailLong`); a range answer's Content-Range is
 * unreadable (`unreadable`), gives another file size (`size`) or another range (`range`), or its body is longer than
 * the range (`long`); the file does not start with the magic (`magic`); its ETag (`etag`) or Last-Modified
 * (`modified`) changed.
 * @internal
 */
export type Why = 'tail' | 'tailLong' | 'unreadable' | 'size' | 'range' | 'long' | 'magic' | 'etag' | 'modified';

/**
 * The HTTP source. This module holds what every read of a server answering range requests runs (the suffix request
 * answered 206, range requests answered 206, one attempt each); http-rare.ts holds the rest (retries and their
 * backoff, answers other than 206: a server ignoring `Range`, refusing suffix ranges, a HEAD for the size, HTTP
 * errors), loaded the first time a source needs it, so that a browser bundle reading from a well-behaved server
 * does not load it. Its fields are internal (not private) for that module.
 * @internal
 */
export class Http implements HttpSource {
  byteLength = 0;
  requestsSent = 0;
  bytesReceived = 0;
  etag: string | undefined;
  lastModified: string | undefined;
  held: { from: number; bytes: Uint8Array } | undefined;
  uncounted = { requests: 0, bytes: 0 };
  readonly f: typeof globalThis.fetch;
  readonly headers: Record<string, string>;
  readonly signal: AbortSignal | undefined;
  /** The controllers of the requests in flight: `signal` aborts them all through one listener. */
  readonly inflight = new Set<AbortController>();
  /** The one listener on `signal`, registered while a request is in flight (so many parallel reads add one). */
  readonly abortAll = (): void => {
    for (const c of this.inflight) c.abort();
  };
  readonly tailGuess: number;
  readonly timeout: number;
  readonly retries: number;
  readonly retryDelay: number;
  readonly maxRetryDelay: number;
  readonly maxWholeBody: number;
  readonly detectChanges: boolean;
  readonly magic: boolean;

  constructor(
    readonly url: string,
    o: FetchSourceOptions,
  ) {
    // called without a `this` (a browser's fetch throws "Illegal invocation" on any other receiver)
    this.f = o.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.headers = o.headers ?? {};
    this.signal = o.signal;
    this.tailGuess = option(o.tailGuess, DEFAULT_TAIL_GUESS, 'tailGuess', 1);
    this.timeout = option(o.timeout, 30_000, 'timeout', 0);
    this.retries = option(o.retries, 3, 'retries', 0);
    this.retryDelay = option(o.retryDelay, 100, 'retryDelay', 0);
    this.maxRetryDelay = option(o.maxRetryDelay, 10_000, 'maxRetryDelay', 0);
    this.maxWholeBody = option(o.maxWholeBody, 32 * 1024 * 1024, 'maxWholeBody', 0);
    this.detectChanges = o.detectChanges ?? true;
    this.magic = o.checkMagic ?? true;
  }

  get heldFrom(): number {
    return this.held?.from ?? this.byteLength;
  }

  takeUncounted(): { requests: number; bytes: number } {
    const u = this.uncounted;
    this.uncounted = { requests: 0, bytes: 0 };
    return u;
  }

  /** Learns the size (and the tail) unless `byteLength` is given. */
  async open(byteLength: number | undefined): Promise<void> {
    if (byteLength !== undefined) {
      this.byteLength = option(byteLength, 0, 'byteLength', 0);
      return;
    }
    const range = `bytes=-${this.tailGuess}`;
    const first = await this.send('GET', range, undefined, { range }, (res) => this.opening(res, range));
    if (first.kind === 'tail' && first.size !== undefined) {
      this.byteLength = first.size;
      this.held = { from: first.size - first.body.length, bytes: first.body };
    } else await (await loadHttpRare()).openWithout(this, first);
    if (first.kind === 'tail' || first.kind === 'whole') this.uncounted = { requests: 1, bytes: first.body.length };
  }

  /** Handles the answer to the suffix request. */
  private async opening(res: Response, range: string): Promise<Opening> {
    if (res.status !== 206) return (await loadHttpRare()).openingStatus(this, res, range);
    await this.noteValidators(res, range, undefined);
    const header = res.headers.get('content-range');
    const cr = contentRange(header);
    if (header !== null && (cr?.start === undefined || (cr.size !== undefined && cr.end !== cr.size - 1) || cr.end - cr.start + 1 > this.tailGuess)) {
      await cancel(res);
      return this.fail('HTTP_ERROR', range, undefined, 'tail', header);
    }
    const body = await readBody(res, this.tailGuess);
    if (body === undefined) return this.fail('HTTP_ERROR', range, undefined, 'tailLong');
    this.bytesReceived += body.length;
    if (cr?.start === undefined || cr.size === undefined) return { kind: 'tail', size: undefined, body };
    const want = cr.end - cr.start + 1;
    if (body.length !== want) throw new Transient(`the answer ended after ${body.length} of ${want} bytes (Content-Range ${header})`);
    if (cr.start === 0) await this.checkMagic(body, range, res);
    return { kind: 'tail', size: cr.size, body };
  }

  async read(start: number, end: number): Promise<Uint8Array> {
    checkRange(start, end, this.byteLength);
    if (start === end) return new Uint8Array(0);
    let held = this.held;
    if (held !== undefined && start >= held.from) return held.bytes.subarray(start - held.from, end - held.from);
    if (held !== undefined && end > held.from) {
      // the bytes before the held tail, joined to the tail's start
      const head = await this.fetchRange(start, held.from);
      held = this.held!;
      if (start >= held.from) return held.bytes.subarray(start - held.from, end - held.from);
      const out = new Uint8Array(end - start);
      out.set(head.subarray(0, Math.min(head.length, end - start)), 0);
      if (end > start + head.length) out.set(held.bytes.subarray(start + head.length - held.from, end - held.from), head.length);
      return out;
    }
    const bytes = await this.fetchRange(start, end);
    // the footer's read when the size was given: keep it as the tail
    if (end === this.byteLength && end - start <= this.tailGuess && (this.held === undefined || start < this.held.from)) this.held = { from: start, bytes };
    return bytes;
  }

  /** One range request for `[start, end)`, checked, retried. */
  private fetchRange(start: number, end: number): Promise<Uint8Array> {
    const range = `bytes=${start}-${end - 1}`;
    const headers: Record<string, string> = { range };
    if (this.detectChanges && this.etag !== undefined && STRONG_ETAG.test(this.etag)) headers['if-match'] = this.etag;
    else if (this.detectChanges && this.lastModified !== undefined) headers['if-unmodified-since'] = this.lastModified;
    return this.send('GET', range, start, headers, async (res) => {
      if (res.status !== 206) return (await loadHttpRare()).rangeStatus(this, res, range, start, end, headers);
      await this.noteValidators(res, range, start);
      const header = res.headers.get('content-range');
      const cr = contentRange(header);
      if (header !== null && cr === undefined) {
        await cancel(res);
        return this.fail('HTTP_ERROR', range, start, 'unreadable', header);
      }
      if (cr?.size !== undefined && cr.size !== this.byteLength) {
        await cancel(res);
        return this.fail('SOURCE_CHANGED', range, start, 'size', cr.size);
      }
      if (cr !== undefined && (cr.start === undefined || cr.start > start || cr.end < end - 1)) {
        await cancel(res);
        return this.fail('HTTP_ERROR', range, start, 'range', header);
      }
      const first = cr?.start ?? start;
      const want = cr?.start === undefined ? end - start : cr.end - cr.start + 1;
      const body = await readBody(res, want);
      if (body === undefined) return this.fail('HTTP_ERROR', range, start, 'long', want);
      this.bytesReceived += body.length;
      if (body.length !== want) throw new Transient(`the answer ended after ${body.length} of ${want} bytes`);
      if (first === 0 && start === 0) await this.checkMagic(body, range, res);
      return body.subarray(start - first, end - first);
    });
  }

  /**
   * With `checkMagic`, bytes from the file's start (a whole-file answer, or a range from byte 0) must begin with
   * "PAR1" or "PARE": a server's HTML or XML page answered in the file's place is NOT_PARQUET at once, naming its
   * Content-Type, instead of a footer error later.
   */
  async checkMagic(body: Uint8Array, what: string, res: Response): Promise<void> {
    if (!this.magic || body.length < 4) return;
    const m = String.fromCharCode(body[0]!, body[1]!, body[2]!, body[3]!);
    if (m !== 'PAR1' && m !== 'PARE') await this.fail('NOT_PARQUET', what, 0, 'magic', body, res.headers.get('content-type'));
  }

  /** Records the first validators seen; throws SOURCE_CHANGED when an answer's differ. */
  async noteValidators(res: Response, what: string, offset: number | undefined): Promise<void> {
    if (!this.detectChanges) return;
    const etag = res.headers.get('etag') ?? undefined;
    const lm = res.headers.get('last-modified') ?? undefined;
    if (etag !== undefined && this.etag !== undefined && opaqueTag(etag) !== opaqueTag(this.etag)) await this.fail('SOURCE_CHANGED', what, offset, 'etag', etag);
    if (lm !== undefined && this.lastModified !== undefined && lm !== this.lastModified && (etag === undefined || this.etag === undefined)) {
      await this.fail('SOURCE_CHANGED', what, offset, 'modified', lm);
    }
    this.etag ??= etag;
    this.lastModified ??= lm;
  }

  /**
   * Fails a request with the ParquetError `code` for an answer that is not what was asked (a wrong Content-Range, a
   * changed file, not Parquet): such answers are rare, so the message is built by http-rare.ts, loaded for it; when
   * that module cannot be loaded (a browser offline), the error keeps its code and says so.
   * @param why - which failure ({@link Why}), with its details `a` and `b`.
   * @throws ParquetError `code`, always.
   */
  async fail(code: string, what: string, offset: number | undefined, why: Why, a?: unknown, b?: unknown): Promise<never> {
    let message: string;
    try {
      message = (await loadHttpRare()).explain(this, why, a, b);
    } catch (e) {
      message = `the answer cannot be used (${why}; its explanation could not be loaded: ${describe(e)})`;
    }
    throw this.error(code, what, offset, message);
  }

  /**
   * Sends one request; `handle` reads the answer (and may throw a {@link Transient} to retry, or a ParquetError to
   * fail). The first attempt is made here; a failure a retry may mend goes on in http-rare.ts (backoff, later
   * attempts), unless no retry is allowed.
   */
  async send<T>(method: 'GET' | 'HEAD', what: string, offset: number | undefined, extra: Record<string, string>, handle: (res: Response) => Promise<T>): Promise<T> {
    const headers = { ...this.headers, ...extra };
    const r = await this.attempt(method, what, offset, headers, handle);
    if (!(r instanceof Failure)) return r;
    if (this.retries === 0) throw this.error(r.code, what, offset, r.detail, r.cause);
    let rare: typeof import('./http-rare.js');
    try {
      rare = await loadHttpRare();
    } catch (e) {
      // the retry code could not be loaded (e.g. a browser offline): the failure is final
      throw this.error(r.code, what, offset, `${r.detail} (not retried: ${describe(e)})`, r.cause);
    }
    return rare.retry(this, r, method, what, offset, headers, handle);
  }

  /**
   * One attempt of a request, bounded by `timeout` and cancelled by `signal`.
   * @returns what `handle` returns, or the {@link Failure} of a transient status, a {@link Transient} thrown by
   *   `handle`, a timeout or a network error.
   * @throws ParquetError `ABORTED`, and the ParquetErrors `handle` throws.
   */
  async attempt<T>(method: 'GET' | 'HEAD', what: string, offset: number | undefined, headers: Record<string, string>, handle: (res: Response) => Promise<T>): Promise<T | Failure> {
    if (this.signal?.aborted) throw this.aborted(what, offset);
    const ctl = new AbortController();
    let timedOut = false;
    const timer = this.timeout > 0 ? setTimeout(() => ((timedOut = true), ctl.abort()), this.timeout) : undefined;
    if (this.inflight.size === 0) this.signal?.addEventListener('abort', this.abortAll);
    this.inflight.add(ctl);
    try {
      this.requestsSent++;
      const f = this.f;
      const res = await f(this.url, { method, headers, signal: ctl.signal });
      if (res.status === 408 || res.status === 429 || (res.status >= 500 && res.status !== 501 && res.status !== 505)) {
        await cancel(res);
        throw new Transient(`answered with HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, res.headers.get('retry-after'));
      }
      return await handle(res);
    } catch (e) {
      if (this.signal?.aborted) throw this.aborted(what, offset);
      if (timedOut) return new Failure('TIMEOUT', `no complete answer within ${this.timeout} ms`, e, undefined);
      if (isParquetError(e)) throw e;
      if (e instanceof Transient) return new Failure('HTTP_ERROR', e.message, undefined, e.retryAfter);
      return new Failure('NETWORK_ERROR', describe(e), e, undefined);
    } finally {
      clearTimeout(timer);
      this.inflight.delete(ctl);
      if (this.inflight.size === 0) this.signal?.removeEventListener('abort', this.abortAll);
    }
  }

  aborted(what: string, offset: number | undefined): ParquetError {
    return this.error('ABORTED', what, offset, 'aborted by the signal', this.signal?.reason);
  }

  error(code: string, what: string, offset: number | undefined, message: string, cause?: unknown): ParquetError {
    const req = what === 'HEAD' ? `HEAD ${this.url}` : `GET ${this.url} (${what})`;
    return new ParquetError(code, `parquet-reader: ${req}: ${message}`, offset, cause === undefined ? undefined : { cause });
  }
}

/** A non-negative integer option (at least `min`), or its default. */
function option(v: number | undefined, dflt: number, name: string, min: number): number {
  if (v === undefined) return dflt;
  if (!(Number.isSafeInteger(v) && v >= min)) throw new ParquetError('INVALID_OPTION', `parquet-reader: fetchSource option ${name} must be an integer >= ${min}, got ${String(v)}`);
  return v;
}

/**
 * Parses `bytes a-b/n`, `bytes a-b/*` and `bytes * /n` (RFC 9110 §14.4).
 * @internal
 */
export function contentRange(v: string | null): { start: number; end: number; size: number | undefined } | { start: undefined; end: undefined; size: number } | undefined {
  if (v === null) return undefined;
  const m = /^\s*bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+|\*)\s*$/i.exec(v);
  if (!m) return undefined;
  const size = m[3] === '*' ? undefined : Number(m[3]);
  if (m[1] === undefined) return size === undefined ? undefined : { start: undefined, end: undefined, size };
  const start = Number(m[1]);
  const end = Number(m[2]);
  if (end < start || (size !== undefined && end >= size)) return undefined;
  return { start, end, size };
}

/** An ETag without its weakness mark (RFC 9110 §8.8.3.2 weak comparison). */
function opaqueTag(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** @internal */
export async function cancel(res: Response): Promise<void> {
  try {
    await res.body?.cancel();
  } catch {
    // the body is abandoned either way
  }
}

/**
 * The body, or undefined (and the body cancelled) when it holds more than `limit` bytes.
 * @internal
 */
export async function readBody(res: Response, limit: number): Promise<Uint8Array | undefined> {
  const len = res.headers.get('content-length');
  const declared = len !== null && /^\d+$/.test(len) && (res.headers.get('content-encoding') ?? 'identity') === 'identity' ? Number(len) : undefined;
  if (declared !== undefined && declared > limit) {
    await cancel(res);
    return undefined;
  }
  if (res.body === null) {
    const all = new Uint8Array(await res.arrayBuffer());
    return all.length > limit ? undefined : all;
  }
  const reader = res.body.getReader();
  let out = new Uint8Array(declared ?? 0);
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (n + value.length > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    if (n + value.length > out.length) {
      const grown = new Uint8Array(Math.min(limit, Math.max(2 * out.length, n + value.length, 65536)));
      grown.set(out.subarray(0, n));
      out = grown;
    }
    out.set(value, n);
    n += value.length;
  }
  return n === out.length ? out : out.subarray(0, n);
}

function checkRange(start: number, end: number, length: number): void {
  if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= length)) {
    throw new ParquetError('OUT_OF_BOUNDS', `parquet-reader: read of bytes [${start}, ${end}) outside the file (${length} bytes)`, start);
  }
}

/** A byte range `[start, end)`. */
export interface ByteRange {
  /** First byte. */
  start: number;
  /** End (exclusive). */
  end: number;
}

/**
 * Reads several ranges, merging ranges whose gap is at most `maxGap` bytes into one request.
 * @param source - the byte source.
 * @param ranges - the ranges wanted (any order, may overlap).
 * @param maxGap - largest gap bridged by one request (default 64 KiB).
 * @returns the bytes of each range, in the order given.
 * @throws ParquetError as a single read does: SOURCE_ERROR, ABORTED, TIMEOUT, and the HTTP codes of {@link fetchSource}.
 */
export async function readRanges(source: ByteSource, ranges: readonly ByteRange[], maxGap = 65536): Promise<Uint8Array[]> {
  const order = ranges.map((_, i) => i).sort((a, b) => ranges[a]!.start - ranges[b]!.start);
  const groups: { start: number; end: number; members: number[] }[] = [];
  for (const i of order) {
    const r = ranges[i]!;
    const last = groups[groups.length - 1];
    if (last && r.start <= last.end + maxGap) {
      last.end = Math.max(last.end, r.end);
      last.members.push(i);
    } else groups.push({ start: r.start, end: r.end, members: [i] });
  }
  const out: Uint8Array[] = new Array(ranges.length);
  await Promise.all(
    groups.map(async (g) => {
      const bytes = await readSource(source, g.start, g.end);
      for (const i of g.members) out[i] = bytes.subarray(ranges[i]!.start - g.start, ranges[i]!.end - g.start);
    }),
  );
  return out;
}
