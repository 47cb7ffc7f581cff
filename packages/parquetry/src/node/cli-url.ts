/**
 * The reading commands on an `http://` or `https://` URL: the file is read with HTTP range requests
 * (`@parquetry/parquet-reader`'s `fetchSource`: a suffix request for the tail and the size, then only the byte ranges
 * a command needs), as DuckDB reads `read_parquet('https://…')`. `--header 'Name: value'` adds request headers
 * (authorisation); an interrupt aborts the requests in flight.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (the footer is at the end of the file, so a
 * reader needs its size and tail first); RFC 9110 §14 (range requests).
 * @module
 */
import { fetchSource, type HttpSource, type OpenOptions } from '@parquetry/parquet-reader';
import { ParquetError } from '@parquetry/thrift-compact';
import { usageError, type Parsed } from './cli-args.js';
import type { LocalParquetFile } from './files.js';
import { openParquet } from '../open.js';

/**
 * Whether a command's file argument is an HTTP(S) URL rather than a path.
 * @param path - the argument.
 * @returns true for `http://…` and `https://…` (any letter case of the scheme).
 */
export function isUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

/** An HTTP header name (RFC 9110 §5.1: a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The request headers of `--header 'Name: value'` options.
 * @param p - parsed arguments.
 * @param url - whether the file argument is a URL (headers on a local path are a usage error).
 * @returns the headers, or undefined when none were given.
 * @throws ParquetError `USAGE` for a header without `Name:`, a bad name, or headers for a local file.
 */
export function headersOf(p: Parsed, url: boolean): Record<string, string> | undefined {
  const given = p.values.get('--header');
  if (given === undefined || given.length === 0) return undefined;
  if (!url) throw usageError(`--header is for a file read over HTTP (an http:// or https:// URL), not the local path '${p.positional[0]}'`);
  const headers: Record<string, string> = {};
  for (const h of given) {
    const colon = h.indexOf(':');
    const name = colon < 0 ? '' : h.slice(0, colon).trim();
    if (!TOKEN.test(name)) throw usageError(`--header '${h}': expected 'Name: value' with a header name of letters, digits and !#$%&'*+.^_\`|~-`);
    headers[name] = h.slice(colon + 1).trim();
  }
  return headers;
}

/** The source's error codes for a file that could not be fetched. */
const TRANSPORT = new Set<unknown>(['HTTP_ERROR', 'NETWORK_ERROR', 'TIMEOUT', 'RANGE_NOT_SUPPORTED']);

/**
 * Opens a Parquet file over HTTP with every codec preset, reading only the byte ranges asked for.
 * @param url - the file's URL.
 * @param options - reader options, the request headers and an abort signal (an interrupt).
 * @returns the opened file; its `close()` aborts requests still running.
 * @throws ParquetError `CANNOT_OPEN` naming the URL and the cause (an HTTP error such as 404, a network error, a
 *   timeout, a server that ignores ranges for a large file); `NOT_PARQUET` and the reader's other errors for a file
 *   that is not valid Parquet; `ABORTED` when `signal` aborts.
 */
export async function openUrl(url: string, options: OpenOptions & UrlOptions = {}): Promise<LocalParquetFile> {
  const { headers, signal, ...open } = options;
  const abort = new AbortController();
  const onAbort = (): void => abort.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const close = async (): Promise<void> => {
    signal?.removeEventListener('abort', onAbort);
    abort.abort();
  };
  try {
    const file = await openParquet(await urlSource(url, { headers, signal: abort.signal }), open);
    return Object.assign(Object.create(file) as object, { close }) as LocalParquetFile;
  } catch (e) {
    await close();
    throw e;
  }
}

/** Request options of a URL read. */
export interface UrlOptions {
  /** Extra request headers (`--header`). */
  headers?: Record<string, string> | undefined;
  /** Aborts the requests (an interrupt). */
  signal?: AbortSignal | undefined;
}

/**
 * The byte source of a URL (its first, suffix request made): the URL fetched exactly as given (query and encoding
 * kept), with the request headers.
 * @param url - the file's URL.
 * @param options - headers and an abort signal.
 * @returns the source.
 * @throws ParquetError `CANNOT_OPEN` naming the URL for a request that failed (an HTTP error such as 404, the
 *   network, a timeout, a server ignoring ranges for a large file); `NOT_PARQUET` and `ABORTED` keep their codes.
 */
export async function urlSource(url: string, options: UrlOptions = {}): Promise<HttpSource> {
  try {
    return await fetchSource(url, { ...(options.signal ? { signal: options.signal } : {}), ...(options.headers ? { headers: options.headers } : {}) });
  } catch (e) {
    // one line naming the URL and why, the source's message saying what the server answered
    if (!TRANSPORT.has((e as { code?: unknown }).code)) throw e;
    const why = e instanceof Error ? e.message.replace(/^parquet-reader: /, '') : String(e);
    throw new ParquetError('CANNOT_OPEN', `parquetry: cannot open '${url}': ${why}`, undefined, { cause: e });
  }
}
