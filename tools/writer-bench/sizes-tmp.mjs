import { mixedColumns } from '/work/main/tools/writer-bench/src/data.mjs';
import { MIXED_SPEC, mixedRows } from '/work/main/tools/writer-bench/src/forms.mjs';
import { writeParquet } from '@parquetry/parquet-writer';
import { openParquet } from '@parquetry/parquet-reader';
import { allCodecs } from 'parquetry';
const m = mixedColumns(1_000_000);
const rows = mixedRows(m);
const b = await writeParquet(rows, { schema: MIXED_SPEC });
const f = await openParquet(b, { codecs: await allCodecs() });
const agg = {};
for (const rg of f.metadata.row_groups) for (const c of rg.columns) { const k = c.meta_data.path_in_schema.join('.'); agg[k] = (agg[k] ?? 0) + c.meta_data.total_compressed_size; }
console.log(f.metadata.row_groups.length, agg);
console.log(rows[0], rows[1]);
