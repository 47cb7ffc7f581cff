/**
 * `@parquetry/parquet-column/columnar` — the Arrow-layout value forms of a decoded chunk that columnar reads take
 * (byte arrays with dictionary indices resolved, packed booleans, INTEGER(8/16/32) typed arrays). Also in the
 * package's main entry; not in `/read`, so that a reader importing `/read` never makes a bundler reach them (esbuild
 * places every module its entry can reach, used or not by it, in the initial load once any lazy chunk uses it): only
 * a reader's lazy columnar part imports this entry.
 *
 * @packageDocumentation
 */
export {
  chunkByteArrays,
  chunkBooleanBits,
  chunkIntegers,
  columnarValues,
  hasColumnarForm,
  type ColumnarValueOptions,
  type IntegerArray,
} from './columnar-values.js';
