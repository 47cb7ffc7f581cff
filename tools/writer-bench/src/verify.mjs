// Read-back check of every writer's output: DuckDB reads the file and computes aggregates that are compared with
// the same aggregates computed in JavaScript from the generator's columns, so that no writer is timed writing a
// broken or different file. (Row count, sums, null count, distinct count, list lengths, string bounds, timestamp range.)

/**
 * Expected aggregates of the mixed table.
 * @param {ReturnType<typeof import('./data.mjs').mixedColumns>} m
 */
export function expectedMixed(m) {
  let sumId = 0;
  let sumI32 = 0;
  let sumF64 = 0;
  let nonNull = 0;
  let sumNullable = 0;
  let flags = 0;
  let highLen = 0;
  let minHigh = m.highCard[0];
  let maxHigh = m.highCard[0];
  for (let i = 0; i < m.n; i++) {
    sumId += Number(m.id[i]);
    sumI32 += m.i32[i];
    sumF64 += m.f64[i];
    if (m.nullableValid[i]) {
      nonNull++;
      sumNullable += m.nullableI32[i];
    }
    flags += m.flag[i];
    const h = m.highCard[i];
    highLen += h.length;
    if (h < minHigh) minHigh = h;
    if (h > maxHigh) maxHigh = h;
  }
  return {
    rows: m.n,
    sum_id: sumId,
    sum_i32: sumI32,
    sum_f64: sumF64,
    nullable_count: nonNull,
    nullable_sum: sumNullable,
    flags,
    low_distinct: new Set(m.lowCard).size,
    high_len: highLen,
    min_high: minHigh,
    max_high: maxHigh,
    tag_items: m.tagValues.length,
    min_ts: Number(m.ts[0]),
    max_ts: Number(m.ts[m.n - 1]),
  };
}

const MIXED_SQL = (path) => `SELECT count(*)::DOUBLE AS rows, sum(id)::DOUBLE AS sum_id, sum(i32)::DOUBLE AS sum_i32,
  sum(f64) AS sum_f64, count(nullable_i32)::DOUBLE AS nullable_count, sum(nullable_i32)::DOUBLE AS nullable_sum,
  count(*) FILTER (WHERE flag)::DOUBLE AS flags, count(DISTINCT low_card)::DOUBLE AS low_distinct,
  sum(strlen(high_card))::DOUBLE AS high_len, min(high_card) AS min_high, max(high_card) AS max_high,
  sum(len(tags))::DOUBLE AS tag_items, min(epoch_us(ts))::DOUBLE AS min_ts, max(epoch_us(ts))::DOUBLE AS max_ts
  FROM read_parquet('${path}')`;

/**
 * Expected aggregates of the numeric table.
 * @param {ReturnType<typeof import('./data.mjs').numericColumns>} t
 */
export function expectedNumeric(t) {
  let id = 0;
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  for (let i = 0; i < t.n; i++) {
    id += Number(t.id[i]);
    a += t.a[i];
    b += Number(t.b[i]);
    c += t.c[i];
    d += t.d[i];
  }
  return { rows: t.n, sum_id: id, sum_a: a, sum_b: b, sum_c: c, sum_d: d };
}

const NUMERIC_SQL = (path) => `SELECT count(*)::DOUBLE AS rows, sum(id)::DOUBLE AS sum_id, sum(a)::DOUBLE AS sum_a,
  sum(b)::DOUBLE AS sum_b, sum(c) AS sum_c, sum(d) AS sum_d FROM read_parquet('${path}')`;

/** Aggregates that are sums of doubles, whose last bits depend on the summation order. */
const FLOAT_SUMS = new Set(['sum_f64', 'sum_c', 'sum_d']);

/**
 * Reads a written file back with DuckDB and compares its aggregates with the expected ones (floating-point sums to
 * a relative 1e-9, everything else exactly).
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {'mixed' | 'numeric'} table
 * @param {string} path
 * @param {Record<string, number | string>} expected
 * @param {string} who the writer, for the error message
 * @throws {Error} naming the writer, the file and the first aggregate that differs
 */
export async function verifyFile(conn, table, path, expected, who) {
  const sql = table === 'mixed' ? MIXED_SQL(path) : NUMERIC_SQL(path);
  const got = (await conn.runAndReadAll(sql)).getRowObjectsJS()[0];
  for (const [k, want] of Object.entries(expected)) {
    const v = got[k];
    const ok = FLOAT_SUMS.has(k)
      ? typeof v === 'number' && Math.abs(v - want) <= 1e-9 * Math.max(1, Math.abs(want))
      : v === want;
    if (!ok) throw new Error(`writer-bench: ${who} wrote ${path} whose ${k} reads back as ${String(v)}, expected ${String(want)}`);
  }
}
