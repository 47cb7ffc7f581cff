#!/usr/bin/env node
// Usage: node tools/footer/print-footer.mjs [file.parquet] [--json]
// Decodes the footer of a Parquet file with @parquetry/thrift-compact (built dist) and prints it.
// Without a file it reads fixtures/sample/sample.parquet, which the project ships.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as pq from '@parquetry/thrift-compact';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const json = args.includes('--json');
const file = args.find((a) => !a.startsWith('--')) ?? path.join(repo, 'fixtures/sample/sample.parquet');

// enum-typed fields, printed by name
const ENUM_FIELDS = {
  type: pq.TypeNames, repetition_type: pq.FieldRepetitionTypeNames, converted_type: pq.ConvertedTypeNames,
  codec: pq.CompressionCodecNames, encodings: pq.EncodingNames, encoding: pq.EncodingNames, page_type: pq.PageTypeNames,
};
const hex = (b) => Array.from(b.subarray(0, 32), (x) => x.toString(16).padStart(2, '0')).join('') + (b.length > 32 ? '…' : '');
function replacer(key, value) {
  if (value instanceof Uint8Array) return `0x${hex(value)} (${value.length} bytes)`;
  const names = ENUM_FIELDS[key];
  if (names && typeof value === 'number') return names[value] ?? value;
  if (names && Array.isArray(value)) return value.map((v) => names[v] ?? v);
  return value;
}

try {
  const bytes = new Uint8Array(fs.readFileSync(file));
  if (bytes.length < 12) throw new pq.ParquetError('NOT_PARQUET', `${file}: ${bytes.length} bytes is too short for a Parquet file`);
  const magic = String.fromCharCode(...bytes.subarray(bytes.length - 4));
  const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  if (magic !== 'PAR1' && magic !== 'PARE') throw new pq.ParquetError('NOT_PARQUET', `${file}: trailing magic is ${JSON.stringify(magic)}, not PAR1/PARE`);
  if (len > bytes.length - 12) throw new pq.ParquetError('CORRUPT_FOOTER', `${file}: footer length ${len} exceeds the file (${bytes.length} bytes)`);
  const start = bytes.length - 8 - len;
  if (magic === 'PARE') {
    const { value } = pq.decodeThrift(pq.readFileCryptoMetaData, bytes, start, bytes.length - 8);
    console.log(`${file}: encrypted footer (PARE); FileCryptoMetaData:`);
    console.log(JSON.stringify(value, replacer, 2));
    process.exit(0);
  }
  const { value: meta } = pq.decodeThrift(pq.readFileMetaData, bytes, start, bytes.length - 8);
  if (json) {
    console.log(JSON.stringify(meta, replacer, 2));
    process.exit(0);
  }
  console.log(`${path.relative(process.cwd(), file)}: ${bytes.length} bytes, footer ${len} bytes at ${start}`);
  console.log(`version ${meta.version}, ${meta.num_rows} rows, ${meta.row_groups.length} row groups, created_by ${meta.created_by ?? '(none)'}`);
  console.log('schema:');
  const stack = [];
  for (const el of meta.schema) {
    const indent = '  '.repeat(stack.length + 1);
    const rep = el.repetition_type === undefined ? '' : `${pq.FieldRepetitionTypeNames[el.repetition_type].toLowerCase()} `;
    const phys = el.type === undefined ? 'group' : pq.TypeNames[el.type] ?? el.type;
    const lt = el.logicalType ? ` ${Object.keys(el.logicalType).join('')}` : el.converted_type !== undefined ? ` (${pq.ConvertedTypeNames[el.converted_type]})` : '';
    console.log(`${indent}${rep}${phys} ${el.name}${lt}`);
    if (stack.length) stack[stack.length - 1]--;
    if (el.num_children) stack.push(el.num_children);
    while (stack.length && stack[stack.length - 1] === 0) stack.pop();
  }
  meta.row_groups.forEach((rg, i) => {
    console.log(`row group ${i}: ${rg.num_rows} rows, ${rg.total_byte_size} bytes`);
    for (const cc of rg.columns) {
      const md = cc.meta_data;
      if (!md) {
        console.log(`  (column metadata encrypted or absent)`);
        continue;
      }
      const stats = md.statistics ? ` nulls=${md.statistics.null_count ?? '?'}` : '';
      console.log(`  ${md.path_in_schema.join('.')}: ${pq.TypeNames[md.type]} ${pq.CompressionCodecNames[md.codec]} [${md.encodings.map((e) => pq.EncodingNames[e] ?? e).join(',')}] ${md.num_values} values, ${md.total_compressed_size}/${md.total_uncompressed_size} bytes${stats}`);
    }
  });
  if (meta.key_value_metadata?.length) console.log(`key/value metadata: ${meta.key_value_metadata.map((kv) => kv.key).join(', ')}`);
} catch (e) {
  if (pq.isParquetError(e)) {
    console.error(`error [${e.code}]: ${e.message}`);
    process.exit(1);
  }
  throw e;
}
