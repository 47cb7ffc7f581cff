import { numericColumns, mixedColumns } from './src/data.mjs';
import { NUMERIC_SPEC, numericVectors, MIXED_SPEC, mixedVectors, utf8Column } from './src/forms.mjs';
import { writeParquet } from '@parquetry/parquet-writer';
const which = process.argv[2] ?? 'numeric';
let data, spec;
if (which === 'numeric') { data = numericVectors(numericColumns(10_000_000)); spec = NUMERIC_SPEC; }
else { const m = mixedColumns(1_000_000); data = mixedVectors(m, { low: utf8Column(m.lowCard), high: utf8Column(m.highCard), tags: utf8Column(m.tagValues) }); spec = MIXED_SPEC; }
for (let k = 0; k < 4; k++) {
  const t = performance.now();
  const b = await writeParquet(data, { schema: spec });
  console.log(which, (performance.now() - t).toFixed(0), 'ms', b.length);
}
