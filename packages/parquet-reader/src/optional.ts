/**
 * The reader's optional parts, each loaded with `import()` the first time a file needs it, so that a bundle holds
 * them in lazy chunks and an install may leave their packages out (optional peer dependencies):
 * - decryption (`@parquetry/parquet-crypto`, https://github.com/apache/parquet-format/blob/master/Encryption.md),
 *   for an encrypted file;
 * - the bloom-filter stage (`@parquetry/parquet-bloom`, https://github.com/apache/parquet-format/blob/master/BloomFilter.md),
 *   for a filtered read of a chunk that has a bloom filter;
 * - VARIANT decoding (`@parquetry/parquet-variant`, https://github.com/apache/parquet-format/blob/master/VariantEncoding.md),
 *   for a read of a file with a VARIANT column, and the JSON-safe mapping (`values: 'json'`, which maps variants too).
 *
 * A package that is not installed is a `DEPENDENCY_MISSING` error naming it and what it was needed for.
 *
 * The reader's own parts that only some reads need are loaded the same way, so that a bundle reading plain files
 * holds them in lazy chunks: the pruning stages (a filtered or row-ranged read), the batch reader, nested record
 * assembly (a read of rows with structs, lists or maps), columnar assembly (a read of vectors), the filter's
 * validation (and the messages of wrong options, read-options.ts), the HTTP source's retries and answers other than 206 (http-rare.ts), and column statistics
 * (statistics-part.ts, re-exporting parquet-column's `columnStatistics` for `statistics()`, which is asynchronous for
 * this): the initial load imports parquet-column's `/decode`, which reaches neither the statistics nor the JSON-safe
 * mapping (json.ts), so both are lazy (openParquet + fetchSource + SNAPPY 37,744 -> 36,132 B gzip).
 *
 * Chunk grouping: esbuild puts modules in chunks by the set of entry points that reach them statically (the entry and
 * every `import()` target, used or not). The lazy parts that use the reader's column and page modules (pruned-scan.ts,
 * batch-reader.ts, batch-scan.ts, batch-filter.ts, filter-check.ts, bloom-stage.ts, json.ts) each `import './file.js'`,
 * which adds no code to them but makes them reach every module the initial load holds, so those modules share one set
 * and one chunk: one file of the initial load instead of three (file.ts's own; the reader's source and pipeline; the
 * column, encoding and codec modules), compressed together (openParquet + fetchSource + SNAPPY: 1.2 KB gzip less). The
 * parts that use neither (http-rare.ts, and records-part.ts and columnar-part.ts, which re-export parquet-levels'
 * assembly so that the `import()` target is a module of ours) import './file.js' and a parquet-column entry for the
 * same reason: without them parquet-levels' validation and assembly were a file of their own in the initial load
 * (openParquet + fetchSource + SNAPPY 458 B gzip more). records-part.ts imports `/read`, not the main entry: the main
 * entry made every `readRows()` of a minimal reader load the chunk of the lazy parts' value mapping and comparisons
 * (from-js.ts, compare.ts: 6.9 KB gzip, measured in Chromium by tools/bundle-size's browser test); with `/read` the
 * minimal initial load is the same and the umbrella's 1.3 KB larger (its column modules in two files). batch-filter.ts
 * imports no module of the batch reader's (which hands it its cursors, `BatchParts`), else the modules both reach would
 * be a file of their own in every batch read; and no lazy part imports parquet-levels' main entry (select.ts did: every
 * filtered read loaded columnar assembly, 3.5 KB gzip). The optional parts (decrypt.ts, variant.ts) `import './file.js'`
 * too: they reach thrift-compact's modules, which were otherwise a file of their own in every initial load (with
 * parquet-codecs' SNAPPY error moved out of snappy.ts, which the WebAssembly kernel's chunk reached: openParquet +
 * fetchSource + SNAPPY 38,720 -> 38,417 B gzip, 6 files -> 4). The decoders of DELTA_*, BYTE_STREAM_SPLIT and ALP
 * pages are loaded the same way (rare-part.ts, which re-exports `@parquetry/parquet-encodings/rare-decoders`; the chunk
 * decoders get it as their `loadRareDecoders` option and import parquet-encodings' `/read-prepared`, which holds no
 * `import()`): parquet-encodings' own `import('./rare-decoders.js')` made its target an entry point that reached
 * thrift-compact's modules, errors.ts and bit-pack-kernels.ts but not the rest of the initial load, so those were a
 * file of their own (openParquet + fetchSource + SNAPPY 38,211 -> 37,561 B gzip, 3 files -> 2; the umbrella 153 B
 * larger, its modules in other files).
 * @module
 */
import { ParquetError, isParquetError } from '@parquetry/thrift-compact';
import type { RareDecodersLoader } from '@parquetry/parquet-encodings/read-prepared';
import type { ParquetFile } from './file.js';

/**
 * Whether a failed `import()` says that a package cannot be found (Node's `ERR_MODULE_NOT_FOUND`, or a bundler's
 * or browser's "cannot find / resolve / failed to fetch" for that package).
 * @param e - what the import rejected with.
 * @param pkg - the package name.
 * @returns true when `e` is a missing-module error for `pkg`.
 */
export function isMissingPackage(e: unknown, pkg: string): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { code, message } = e as { code?: unknown; message?: unknown };
  if (typeof message !== 'string' || !message.includes(pkg)) return false;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /cannot find|could not resolve|failed to (fetch|resolve)/i.test(message);
}

/**
 * The error of a part of the reader that could not be loaded (a chunk a bundler split off that the browser could not
 * fetch, a module a packager left out): `PART_UNAVAILABLE`, naming the part, with the load's error as its cause.
 * @param e - what the import rejected with (a ParquetError passes through).
 * @param what - the part, for the message.
 * @returns the error to throw.
 */
export function partUnavailable(e: unknown, what: string): Error {
  if (isParquetError(e)) return e;
  const why = e instanceof Error ? e.message : String(e);
  return new ParquetError('PART_UNAVAILABLE', `parquet-reader: cannot load ${what} (a later read tries again): ${why}`, undefined, { cause: e });
}

/**
 * Loads a part of the reader once (the promise is kept; a failed load, e.g. a chunk that could not be fetched, is
 * retried next time).
 * @param load - the `import()` of the part's module.
 * @param what - the part, for the error message; without it the load's error passes through unchanged (for callers
 *   that handle it themselves, as the HTTP source does).
 * @returns a loader; it rejects with ParquetError `PART_UNAVAILABLE` when the part cannot be loaded.
 */
export function lazyPart<M>(load: () => Promise<M>, what?: string): () => Promise<M> {
  let p: Promise<M> | undefined;
  return () =>
    (p ??= load().catch((e: unknown) => {
      p = undefined;
      throw what === undefined ? e : partUnavailable(e, what);
    }));
}

/**
 * Loads an optional part once (the promise is kept; a failed load is retried next time).
 * @param load - the `import()` of the part's module.
 * @param pkg - the package it needs.
 * @param purpose - what the file needs it for, for the error message.
 * @returns a loader; it rejects with ParquetError `DEPENDENCY_MISSING` when the package is not installed, and
 *   `PART_UNAVAILABLE` when the part cannot be loaded otherwise.
 */
export function optionalPart<M>(load: () => Promise<M>, pkg: string, purpose: string): () => Promise<M> {
  let p: Promise<M> | undefined;
  return () =>
    (p ??= load().catch((e: unknown) => {
      p = undefined;
      if (isMissingPackage(e, pkg)) {
        throw new ParquetError('DEPENDENCY_MISSING', `parquet-reader: ${purpose} needs ${pkg}, which is not installed; add it to your dependencies (npm install ${pkg}), or use the \`parquetry\` package, which brings every part`, undefined, { cause: e });
      }
      throw partUnavailable(e, `the part of the reader for ${purpose}`);
    }));
}

/**
 * Loads the decryption functions (for an encrypted file).
 * @returns the decrypt module.
 * @throws ParquetError `DEPENDENCY_MISSING` when `@parquetry/parquet-crypto` is not installed (as a rejected promise).
 */
export const loadDecryption: () => Promise<typeof import('./decrypt.js')> = /*#__PURE__*/ optionalPart(() => import('./decrypt.js'), '@parquetry/parquet-crypto', 'this file is encrypted: decrypting it');

/**
 * Loads the bloom-filter stage (for a filtered read of a chunk with a bloom filter).
 * @returns the bloom stage module.
 * @throws ParquetError `DEPENDENCY_MISSING` when `@parquetry/parquet-bloom` is not installed (as a rejected promise).
 */
export const loadBloomStage: () => Promise<typeof import('./bloom-stage.js')> = /*#__PURE__*/ optionalPart(() => import('./bloom-stage.js'), '@parquetry/parquet-bloom', 'a filter probing this file\'s bloom filters');

/**
 * Loads VARIANT decoding (for a read of a file with a VARIANT column).
 * @returns the variant row transform module.
 * @throws ParquetError `DEPENDENCY_MISSING` when `@parquetry/parquet-variant` is not installed (as a rejected promise).
 */
export const loadVariant: () => Promise<typeof import('./variant.js')> = /*#__PURE__*/ optionalPart(() => import('./variant.js'), '@parquetry/parquet-variant', 'this file has VARIANT columns: decoding them');

/**
 * Loads the JSON-safe mapping (for a read with `values: 'json'`).
 * @returns the JSON module.
 * @throws ParquetError `DEPENDENCY_MISSING` when `@parquetry/parquet-variant` is not installed (as a rejected promise).
 */
export const loadJson: () => Promise<typeof import('./json.js')> = /*#__PURE__*/ optionalPart(() => import('./json.js'), '@parquetry/parquet-variant', "a read with values: 'json'");

/**
 * Loads column-chunk statistics (for {@link ParquetFile.statistics}).
 * @returns the statistics part's module.
 */
export const loadStatistics: () => Promise<typeof import('./statistics-part.js')> = /*#__PURE__*/ lazyPart(() => import('./statistics-part.js'), 'column statistics (statistics-part)');

/**
 * Loads the pruning stages (for a filtered or row-ranged read, batches included).
 * @returns the pruned-scan module.
 */
export const loadPruning: () => Promise<typeof import('./pruned-scan.js')> = /*#__PURE__*/ lazyPart(() => import('./pruned-scan.js'), "the pruning stages (pruned-scan)");

/**
 * Loads the page index inspection (for {@link ParquetFile.pageIndex}).
 * @returns the chunk-index module.
 */
export const loadChunkIndex: () => Promise<typeof import('./chunk-index.js')> = /*#__PURE__*/ lazyPart(() => import('./chunk-index.js'), "the page index reader (chunk-index)");

/**
 * Loads the resolution of dotted paths (for a file whose field names have dots).
 * @returns the dotted-names module.
 */
export const loadDottedNames: () => Promise<typeof import('./dotted-names.js')> = /*#__PURE__*/ lazyPart(() => import('./dotted-names.js'), "the dotted-name resolution (dotted-names)");

/**
 * Loads the batch reader (for {@link ParquetFile.iterateBatches}).
 * @returns the batch reader module.
 */
export const loadBatchReader: () => Promise<typeof import('./batch-reader.js')> = /*#__PURE__*/ lazyPart(() => import('./batch-reader.js'), "the batch reader (batch-reader)");

/**
 * Loads columnar assembly (for {@link ParquetFile.readRowGroupColumns}).
 * @returns the parquet-levels module that assembles vectors.
 */
export const loadColumnar: () => Promise<typeof import('./columnar-part.js')> = /*#__PURE__*/ lazyPart(() => import('./columnar-part.js'), "columnar assembly (columnar-part)");

/**
 * Loads nested record assembly (for a read of rows whose columns are not all top-level leaves).
 * @returns the parquet-levels module that assembles records.
 */
export const loadRecords: () => Promise<typeof import('./records-part.js')> = /*#__PURE__*/ lazyPart(() => import('./records-part.js'), "record assembly (records-part)");

/**
 * Loads the filter's validation (for a read with a filter, or a malformed `columns` option).
 * @returns the filter-check module.
 */
export const loadFilterCheck: () => Promise<typeof import('./filter-check.js')> = /*#__PURE__*/ lazyPart(() => import('./filter-check.js'), "the filter checks (filter-check)");

/**
 * Loads the decoders of DELTA_*, BYTE_STREAM_SPLIT and ALP pages (rare-part.ts), passed to every chunk decoder
 * (`loadRareDecoders`); parquet-encodings keeps the load once done, and a failed load is ParquetError
 * `ENCODING_UNAVAILABLE` naming the encoding, tried again by a later page.
 */
export const loadRareDecoders: RareDecodersLoader = () => import('./rare-part.js');

/**
 * Loads the HTTP source's rare paths (for a retry, or an answer other than 206 Partial Content).
 * @returns the http-rare module.
 */
export const loadHttpRare: () => Promise<typeof import('./http-rare.js')> = /*#__PURE__*/ lazyPart(() => import('./http-rare.js'));
