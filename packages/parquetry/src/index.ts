/**
 * `parquetry` — Apache Parquet for TypeScript: reader, writer and every codec preset, plus the CLI.
 *
 * Implemented so far: the codec preset — {@link allCodecs} (every codec of parquet.thrift, both directions) and
 * {@link syncCodecs} (all but BROTLI, no WebAssembly). The reader, writer and CLI land with their own issues.
 *
 * @packageDocumentation
 */
export { allCodecs, syncCodecs, type AllCodecsOptions } from './codecs.js';
