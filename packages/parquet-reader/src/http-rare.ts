/**
 * The HTTP source's rare paths (`fetchSource`), loaded with `import()` the first time a source needs one, so
 * that a browser bundle reading from a server that answers range requests holds them in a lazy chunk:
 * - retries of a failed attempt (a transient status: 408, 429, 5xx but 501 and 505; a short body; a timeout; a
 *   network error), with exponential backoff or the server's `Retry-After` (RFC 9110 §10.2.3,
 *   https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3);
 * - answers other than 206 Partial Content (RFC 9110 §15.3.7): a server ignoring `Range` (200, the whole file), one
 *   refusing suffix ranges (416, 400, 501) or hiding `Content-Range` (then a HEAD request, else a one-byte range
 *   request, for the size), a failed precondition (412) and the HTTP errors.
 *
 * The source's state and its common paths are in source.ts (`Http`).
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import '@parquetry/parquet-column/decode';
import type { ParquetError } from '@parquetry/thrift-compact';
import { cancel, contentRange, Failure, readBody, type Http, type Opening, type Why } from './source.js';

/**
 * The message of a failure the source found in an answer ({@link Http.fail}).
 * @param h - the source.
 * @param why - which failure.
 * @param a - its detail: the Content-Range header (`tail`, `unreadable`, `range`), the size (`size`) or the byte
 *   count (`long`) it gives, the body (`magic`), the new ETag (`etag`) or Last-Modified (`modified`).
 * @param b - for `magic`, the answer's Content-Type (null when absent).
 * @returns the message.
 */
export function explain(h: Http, why: Why, a: unknown, b: unknown): string {
  switch (why) {
    case 'tail':
      return `answered with Content-Range ${String(a)}, not the file's last bytes (at most ${h.tailGuess})`;
    case 'tailLong':
      return `the answer holds more than the ${h.tailGuess} bytes asked for`;
    case 'unreadable':
      return `answered with an unreadable Content-Range ${JSON.stringify(a)}`;
    case 'size':
      return `the file is now ${String(a)} bytes, it was ${h.byteLength} when first read`;
    case 'range':
      return `answered with Content-Range ${String(a)}, not the range asked for`;
    case 'long':
      return `the answer holds more than the ${String(a)} bytes of its range`;
    case 'magic': {
      const shown = Array.from((a as Uint8Array).subarray(0, 4), (x) => x.toString(16).padStart(2, '0')).join(' ');
      return `the file starts with ${shown}, not "PAR1" or "PARE": not a Parquet file${b === null ? '' : ` (Content-Type ${String(b)})`}`;
    }
    case 'etag':
      return `the file changed since it was first read (ETag ${h.etag}, now ${String(a)})`;
    default:
      return `the file changed since it was first read (Last-Modified ${h.lastModified}, now ${String(a)})`;
  }
}

/** Retry-After (seconds or an HTTP date) in milliseconds. */
function retryAfterMs(v: string | null | undefined): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - Date.now());
}

function statusError(h: Http, res: Response, what: string, offset: number | undefined): ParquetError {
  return h.error('HTTP_ERROR', what, offset, `answered with HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
}

/** Waits `ms`, or rejects with `ABORTED` when the source's signal aborts (at once when it has already). */
function sleep(h: Http, ms: number, what: string, offset: number | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const signal = h.signal;
    // aborted while this module loaded
    if (signal?.aborted) return reject(h.aborted(what, offset));
    const onAbort = (): void => {
      clearTimeout(t);
      reject(h.aborted(what, offset));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Goes on with a request whose first attempt failed: waits (backoff, or the server's `Retry-After`), tries again,
 * up to `retries` retries.
 * @param h - the source.
 * @param failure - the first attempt's failure.
 * @param method - the request's method.
 * @param what - the request as error messages name it.
 * @param offset - the file offset for errors.
 * @param headers - the request's headers.
 * @param handle - reads an answer (as for the first attempt).
 * @returns what `handle` returns for the first attempt that succeeds.
 * @throws ParquetError the last attempt's failure (`HTTP_ERROR`, `NETWORK_ERROR`, `TIMEOUT`), `HTTP_ERROR` at once
 *   for a `Retry-After` longer than `maxRetryDelay`, `ABORTED`, and the ParquetErrors `handle` throws.
 */
export async function retry<T>(h: Http, failure: Failure, method: 'GET' | 'HEAD', what: string, offset: number | undefined, headers: Record<string, string>, handle: (res: Response) => Promise<T>): Promise<T> {
  let f = failure;
  for (let attempt = 0; ; attempt++) {
    const tries = attempt === 0 ? '' : ` (after ${attempt + 1} attempts)`;
    if (attempt >= h.retries) throw h.error(f.code, what, offset, `${f.detail}${tries}`, f.cause);
    const retryAfter = retryAfterMs(f.retryAfter);
    if (retryAfter !== undefined && retryAfter > h.maxRetryDelay) {
      throw h.error(f.code, what, offset, `${f.detail}${tries}; the server asks to retry after ${Math.ceil(retryAfter / 1000)} s, longer than maxRetryDelay (${h.maxRetryDelay} ms)`);
    }
    const cap = Math.min(h.maxRetryDelay, h.retryDelay * 2 ** attempt);
    await sleep(h, retryAfter ?? cap / 2 + (Math.random() * cap) / 2, what, offset);
    const r = await h.attempt(method, what, offset, headers, handle);
    if (!(r instanceof Failure)) return r;
    f = r;
  }
}

/**
 * The suffix request's answer when it is not 206: the whole file (200), the size of an empty file (416 with
 * `bytes * /0`), a refusal of suffix ranges (416, 400, 501: the size is then asked for otherwise), or an error.
 * @param h - the source.
 * @param res - the answer.
 * @param range - the suffix range asked for.
 * @returns what the answer tells.
 * @throws ParquetError `HTTP_ERROR` for any other status, `NOT_PARQUET`, `SOURCE_CHANGED`.
 */
export async function openingStatus(h: Http, res: Response, range: string): Promise<Opening> {
  const s = res.status;
  if (s === 200) {
    await h.noteValidators(res, range, undefined);
    const body = await readBody(res, h.maxWholeBody);
    if (body === undefined) return { kind: 'fallback', why: `the server ignored the range and answered with a file larger than maxWholeBody (${h.maxWholeBody} bytes)`, ignoredRange: true };
    h.bytesReceived += body.length;
    await h.checkMagic(body, range, res);
    return { kind: 'whole', body };
  }
  await cancel(res);
  if (s === 416) {
    const cr = contentRange(res.headers.get('content-range'));
    // "bytes */0": an empty file (no suffix of it is satisfiable); any other size: suffix ranges unsupported
    if (cr?.size !== undefined) return { kind: 'size', size: cr.size };
    return { kind: 'fallback', why: 'HTTP 416 to a suffix range' };
  }
  if (s === 400 || s === 501) return { kind: 'fallback', why: `HTTP ${s} to a suffix range` };
  throw statusError(h, res, range, undefined);
}

/**
 * Sets the size (and what is held) from an opening that did not give a tail at a known position: the whole file,
 * the size alone, or nothing (then the size is asked for, and a tail of unknown position kept when its length shows
 * it is the file's end).
 * @param h - the source.
 * @param first - what the suffix request learnt.
 */
export async function openWithout(h: Http, first: Opening): Promise<void> {
  if (first.kind === 'whole') {
    h.byteLength = first.body.length;
    h.held = { from: 0, bytes: first.body };
  } else if (first.kind === 'size') {
    h.byteLength = first.size;
  } else {
    h.byteLength = await learnSize(h, first.kind === 'tail' ? 'the suffix answer has no readable Content-Range' : first.why, first.kind === 'fallback' && first.ignoredRange === true);
    // a tail whose position was unknown: it is the file's last bytes if its length is the one asked for (or the file's)
    if (first.kind === 'tail' && (first.body.length === h.tailGuess || first.body.length === h.byteLength) && first.body.length <= h.byteLength) {
      h.held = { from: h.byteLength - first.body.length, bytes: first.body };
    }
  }
}

/**
 * The size from a HEAD request, else from a one-byte range request.
 * @param h - the source.
 * @param why - why the opening request did not tell it.
 * @param ignoredRange - the opening request was answered with a body larger than `maxWholeBody` (a suffix range
 *   ignored): a 200 to the one-byte range then shows that plain ranges are ignored too, and the read fails at once,
 *   without reading that body up to `maxWholeBody` a second time.
 */
async function learnSize(h: Http, why: string, ignoredRange = false): Promise<number> {
  const head = await h.send('HEAD', 'HEAD', undefined, {}, async (res) => {
    await cancel(res);
    if (res.ok) {
      await h.noteValidators(res, 'HEAD', undefined);
      const len = res.headers.get('content-length');
      if (len !== null && /^\d+$/.test(len) && (res.headers.get('content-encoding') ?? 'identity') === 'identity') return Number(len);
      return `HEAD ${res.status} without a Content-Length`;
    }
    if ([401, 403, 404, 410].includes(res.status)) throw statusError(h, res, 'HEAD', undefined);
    return `HEAD ${res.status}`;
  });
  if (typeof head === 'number') return head;
  const range = 'bytes=0-0';
  const probe = await h.send('GET', range, 0, { range }, async (res) => {
    if (res.status === 206) {
      const cr = contentRange(res.headers.get('content-range'));
      await cancel(res);
      if (cr?.size !== undefined) {
        await h.noteValidators(res, range, 0);
        return cr.size;
      }
      return `range ${res.status} without a readable Content-Range`;
    }
    if (res.status === 200) {
      if (ignoredRange) {
        await cancel(res);
        throw h.error('RANGE_NOT_SUPPORTED', range, 0, `the server ignores Range and the file is larger than maxWholeBody (${h.maxWholeBody} bytes); raise maxWholeBody to read it whole`);
      }
      await h.noteValidators(res, range, 0);
      const body = await readBody(res, h.maxWholeBody);
      if (body === undefined) throw h.error('RANGE_NOT_SUPPORTED', range, 0, `the server ignores Range and the file is larger than maxWholeBody (${h.maxWholeBody} bytes); raise maxWholeBody to read it whole`);
      h.bytesReceived += body.length;
      await h.checkMagic(body, range, res);
      h.held = { from: 0, bytes: body };
      return body.length;
    }
    if (res.status === 416) {
      await cancel(res);
      const cr = contentRange(res.headers.get('content-range'));
      if (cr?.size !== undefined) return cr.size;
    }
    throw statusError(h, res, range, 0);
  });
  if (typeof probe === 'number') return probe;
  throw h.error('HTTP_ERROR', range, undefined, `cannot learn the file size (${why}; ${head}; ${probe})`);
}

/**
 * A range request's answer when it is not 206: the whole file (200: kept, when the file is at most `maxWholeBody`
 * bytes), or an error.
 * @param h - the source.
 * @param res - the answer.
 * @param range - the range asked for.
 * @param start - its first byte.
 * @param end - its end (exclusive).
 * @param headers - the request's headers (for the message of a 412).
 * @returns the bytes `[start, end)`.
 * @throws ParquetError `RANGE_NOT_SUPPORTED`, `SOURCE_CHANGED` (412, a 416 or a whole body of another size),
 *   `HTTP_ERROR`, `NOT_PARQUET`.
 */
export async function rangeStatus(h: Http, res: Response, range: string, start: number, end: number, headers: Record<string, string>): Promise<Uint8Array> {
  const s = res.status;
  if (s === 200) {
    // the server ignored the range: the body is the whole file
    await h.noteValidators(res, range, start);
    const body = h.byteLength <= h.maxWholeBody ? await readBody(res, h.maxWholeBody) : (await cancel(res), undefined);
    if (body === undefined) {
      throw h.error('RANGE_NOT_SUPPORTED', range, start, `the server ignored Range and answered with the whole file (HTTP 200), which is larger than maxWholeBody (${h.maxWholeBody} bytes); raise maxWholeBody to read it whole`);
    }
    h.bytesReceived += body.length;
    if (body.length !== h.byteLength) throw h.error('SOURCE_CHANGED', range, start, `the server ignored Range and answered with ${body.length} bytes, the file was ${h.byteLength} bytes when first read`);
    await h.checkMagic(body, range, res);
    h.held = { from: 0, bytes: body };
    return body.subarray(start, end);
  }
  await cancel(res);
  if (s === 412) throw h.error('SOURCE_CHANGED', range, start, `the file changed since it was first read (HTTP 412 to ${headers['if-match'] !== undefined ? `If-Match ${headers['if-match']}` : `If-Unmodified-Since ${headers['if-unmodified-since']}`})`);
  if (s === 416) {
    const cr = contentRange(res.headers.get('content-range'));
    if (cr?.size !== undefined && cr.size !== h.byteLength) await h.fail('SOURCE_CHANGED', range, start, 'size', cr.size);
  }
  throw statusError(h, res, range, start);
}
