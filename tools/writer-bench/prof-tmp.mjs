import { mixedColumns } from './src/data.mjs';
import { MIXED_SPEC, mixedRows, mixedVectors, utf8Column } from './src/forms.mjs';
import { writeParquet } from '@parquetry/parquet-writer';
const m = mixedColumns(1_000_000);
const rows = mixedRows(m);
const mode = process.argv[2] ?? 'rows';
for (let k = 0; k < 3; k++) {
  const t = performance.now();
  const b = await writeParquet(rows, { schema: MIXED_SPEC });
  console.log(mode, (performance.now() - t).toFixed(0), 'ms', b.length);
}
