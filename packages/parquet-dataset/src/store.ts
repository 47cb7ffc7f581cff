/**
 * Dataset stores: where a dataset's files live. A store lists files (when it can), opens one as a reader
 * {@link ByteSource}, fetches a small file whole (a summary file: one request), and creates files for the writer.
 * In this entry: {@link memoryStore} (files in memory) and {@link urlStore} (HTTP range requests below a base
 * URL). The Node entry adds a local directory.
 * @module
 */
import { ParquetError, type OptionRules } from '@parquetry/thrift-compact';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import type { ByteSource } from '@parquetry/parquet-reader';
import { memorySink, type ByteSink } from '@parquetry/parquet-writer';

/** A file of a store: its path below the dataset root (`/`-separated) and, when known, its size and modification time. */
export interface StoreEntry {
  /** Path relative to the dataset root, `/`-separated, e.g. `year=2024/part-0.parquet`. */
  path: string;
  /** Size in bytes, when known (saves a request when the file is opened). */
  size?: number;
  /**
   * When the file was last modified, in milliseconds since the epoch, when the store knows (a local directory: the
   * file's `mtimeMs`; the memory store: when it was written or first listed). When the listing dates both `_metadata`
   * and a data file, a data file modified after `_metadata` makes the summary stale (see `SummaryIgnored`).
   */
  modified?: number;
}

/** Where a dataset's files are read from. */
export interface DatasetStore {
  /** The dataset root, for messages (a directory or a base URL). */
  readonly location: string;
  /**
   * Lists every file below the root (recursively), or is absent when the store cannot list (HTTP).
   * @returns the files, in any order.
   */
  list?(): Promise<StoreEntry[]>;
  /**
   * Opens a file for random access.
   * @param path - the path below the root.
   * @param size - the size when known, or a bound the reads stay within.
   * @returns the byte source.
   */
  open(path: string, size?: number): Promise<ByteSource>;
  /**
   * Fetches a whole (small) file in one request.
   * @param path - the path below the root.
   * @returns its bytes, or undefined when it does not exist.
   */
  get(path: string): Promise<Uint8Array | undefined>;
}

/** Where a dataset's files are written to. */
export interface WritableDatasetStore {
  /** The dataset root, for messages. */
  readonly location: string;
  /**
   * Creates a file; it must appear at `path` only when the sink is closed (nothing, or nothing at `path`, when
   * aborted).
   * @param path - the path below the root (parent directories are created as needed).
   * @returns the sink.
   */
  create(path: string): Promise<ByteSink>;
  /**
   * Lists what is already below the root (to refuse writing over an existing dataset), when the store can.
   * @returns the files.
   */
  list?(): Promise<StoreEntry[]>;
}

/** A store over files held in memory (a browser, tests); readable and writable. */
export interface MemoryStore extends DatasetStore, WritableDatasetStore {
  /** The files by path (written files appear here when closed). */
  readonly files: Map<string, Uint8Array>;
  /**
   * Lists the files.
   * @returns every file with its size and modification time: when the store wrote it, or else when a listing first
   *   saw its bytes (a file replaced in `files` by other bytes is dated by the first listing after; bytes changed in
   *   place keep their date).
   */
  list(): Promise<StoreEntry[]>;
}

function missing(location: string, path: string): ParquetError {
  return new ParquetError('NOT_FOUND', `parquet-dataset: ${location}: no file '${path}'`);
}

/**
 * A store over files in memory.
 * @param files - initial files by path (`/`-separated below the root).
 * @returns the store.
 */
export function memoryStore(files: Record<string, Uint8Array> | Map<string, Uint8Array> = {}): MemoryStore {
  const map = files instanceof Map ? files : new Map(Object.entries(files));
  const location = 'memory';
  // modification times by the bytes' identity: stamped when the store writes a file, or when a listing first sees it
  // (all the files one listing sees first with one time: files set together are not dated apart)
  const stamps = new WeakMap<Uint8Array, number>();
  const list = (): StoreEntry[] => {
    const now = Date.now();
    return [...map].map(([path, b]) => {
      let modified = stamps.get(b);
      if (modified === undefined) stamps.set(b, (modified = now));
      return { path, size: b.length, modified };
    });
  };
  return {
    location,
    files: map,
    list: () => Promise.resolve(list()),
    open(path) {
      const b = map.get(path);
      if (!b) return Promise.reject(missing(location, path));
      const source: ByteSource = {
        byteLength: b.length,
        read(s, e) {
          if (!(Number.isInteger(s) && Number.isInteger(e) && s >= 0 && s <= e && e <= b.length)) {
            return Promise.reject(new ParquetError('OUT_OF_BOUNDS', `parquet-dataset: read of bytes [${s}, ${e}) outside '${path}' (${b.length} bytes)`, s));
          }
          return Promise.resolve(b.subarray(s, e));
        },
      };
      return Promise.resolve(source);
    },
    get: (path) => Promise.resolve(map.get(path)),
    create(path) {
      const sink = memorySink();
      return Promise.resolve({
        write: (c: Uint8Array) => sink.write(c),
        close() {
          const b = sink.bytes();
          stamps.set(b, Date.now());
          map.set(path, b);
        },
        abort() {
          sink.abort?.();
        },
      });
    },
  };
}

/** Options of {@link urlStore}. */
export interface UrlStoreOptions {
  /** Extra request headers (authorisation, …). */
  headers?: Record<string, string>;
  /** A `fetch` implementation (default `globalThis.fetch`). */
  fetch?: typeof globalThis.fetch;
  /**
   * Bytes asked for by the first request to a file of unknown size: a suffix range (`bytes=-N`) whose answer gives
   * the size and the footer at once, so that opening a file costs one request (default 64 KiB, the reader's tail
   * guess: pass the same `tailGuess` to both).
   */
  tailGuess?: number;
}

/** What {@link urlStore} takes. */
const URL_STORE_RULES: OptionRules = { headers: 'object', fetch: 'function', tailGuess: 'positive' };

/**
 * A byte source over HTTP range requests (one GET per read) within `byteLength` bytes, which may be the file's size
 * or a bound the reads stay within (a file planned from `_metadata`, whose size is not known).
 */
function rangeSource(url: string, byteLength: number, f: typeof globalThis.fetch, headers: Record<string, string>): ByteSource {
  return {
    byteLength,
    async read(start, end) {
      if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= byteLength)) {
        throw new ParquetError('OUT_OF_BOUNDS', `parquet-dataset: read of bytes [${start}, ${end}) outside ${url} (${byteLength} bytes)`, start);
      }
      if (start === end) return new Uint8Array(0);
      const res = await f(url, { headers: { ...headers, range: `bytes=${start}-${end - 1}` } });
      const body = new Uint8Array(await res.arrayBuffer());
      if (res.status === 206 && body.length === end - start) return body;
      if (res.status === 200 && body.length >= end) return body.subarray(start, end); // a server that ignores Range
      throw new ParquetError('HTTP_ERROR', `parquet-dataset: ${url}: range ${start}-${end - 1} answered with HTTP ${res.status} and ${body.length} bytes, expected 206 and ${end - start}`, start);
    },
  };
}

/**
 * Serves the first read inside `tail` (the file's last bytes, fetched with its size) from memory — the reader's
 * footer read — then forgets them: later reads go to `source`, so that a file keeps no buffer and every later
 * request is a real one (the scan statistics count what the server sends).
 */
function withTail(source: ByteSource, tail: Uint8Array): ByteSource {
  const tailStart = source.byteLength - tail.length;
  let kept: Uint8Array | undefined = tail;
  return {
    byteLength: source.byteLength,
    read(s, e) {
      const t = kept;
      if (t !== undefined && s >= tailStart && e <= source.byteLength) {
        kept = undefined;
        return Promise.resolve(t.subarray(s - tailStart, e - tailStart));
      }
      return source.read(s, e);
    },
  };
}

/**
 * Opens a URL for range reads: with its size given, no request; else one suffix request (`bytes=-guess`) whose answer
 * gives the size and the file's tail (served to the first read in it).
 * @param url - the URL, requested as given.
 * @param size - the size, or a bound the reads stay within; undefined to learn it.
 * @param f - the fetch implementation.
 * @param headers - request headers.
 * @param guess - bytes of the suffix request.
 * @returns the byte source.
 * @throws ParquetError `HTTP_ERROR` for an answer that is not 200 or 206 with the size.
 */
export async function openUrl(url: string, size: number | undefined, f: typeof globalThis.fetch, headers: Record<string, string>, guess: number): Promise<ByteSource> {
  if (size !== undefined) return rangeSource(url, size, f, headers);
  const res = await f(url, { headers: { ...headers, range: `bytes=-${guess}` } });
  const body = new Uint8Array(await res.arrayBuffer());
  let total: number;
  if (res.status === 206) {
    const m = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
    if (!m) throw new ParquetError('HTTP_ERROR', `parquet-dataset: ${url}: a 206 answer without the file size in Content-Range`);
    total = Number(m[1]);
  } else if (res.status === 200) total = body.length;
  else throw new ParquetError('HTTP_ERROR', `parquet-dataset: ${url}: suffix range of ${guess} bytes answered with HTTP ${res.status}`);
  const tail = res.status === 200 ? body.subarray(Math.max(0, total - guess)) : body;
  return withTail(rangeSource(url, total, f, headers), tail);
}

/**
 * A store below a base URL: files are opened with HTTP range requests (a file of unknown size with one suffix
 * request that returns its size and its tail), summary files fetched whole. It cannot list: give the files, or
 * let a `_metadata` summary list them.
 * @param base - the dataset root URL (a trailing `/` is added when missing).
 * @param options - headers, fetch implementation, first-request size.
 * @returns the store.
 * @throws ParquetError `INVALID_OPTION` for an option it does not take (naming the nearest one and its list) or a
 *   value of the wrong kind (as the reader's `fetchSource`).
 */
export function urlStore(base: string, options: UrlStoreOptions = {}): DatasetStore {
  checkOptions(options, URL_STORE_RULES, 'parquet-dataset: urlStore', 'INVALID_OPTION');
  const root = base.endsWith('/') ? base : `${base}/`;
  const f = options.fetch ?? globalThis.fetch;
  const headers = options.headers ?? {};
  const guess = options.tailGuess ?? 65536;
  const urlOf = (path: string) => new URL(path.split('/').map(encodeURIComponent).join('/').replace(/%3D/g, '='), root).href;
  return {
    location: root,
    open: (path, size) => openUrl(urlOf(path), size, f, headers, guess),
    async get(path) {
      const url = urlOf(path);
      const res = await f(url, { headers });
      if (res.status === 404) {
        await res.arrayBuffer().catch(() => undefined);
        return undefined;
      }
      if (!res.ok) throw new ParquetError('HTTP_ERROR', `parquet-dataset: ${url}: GET answered with HTTP ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}
