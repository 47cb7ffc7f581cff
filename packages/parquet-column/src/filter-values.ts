/**
 * `@parquetry/parquet-column/filter-values` — what a reader's filters use besides the read side: the value ordering
 * ({@link compareValues}, {@link compareDecimals}) and the JavaScript → physical mapping of filter values
 * ({@link fromJsValues}). The same functions as the package's main entry; a reader's lazy filter parts import this
 * entry rather than the main one, which would make a bundler reach the columnar value forms (`/columnar`) from them
 * and load those with every filtered read.
 *
 * @packageDocumentation
 */
export { fromJsValues, type FromJsOptions } from './from-js.js';
export { compareValues, compareDecimals } from './compare.js';
