// Review of files where the peers disagree (or where a peer's reading is known to be wrong), with the reason from
// the Parquet spec. derive-expected.mjs applies these: `trusted` names the peer whose values are the expectation.
/** @type {Record<string, { trusted: 'duckdb' | 'parquet-wasm' | 'none', notes: string[] }>} */
export const REVIEW = {};
