/**
 * Footer decoding, the table-driven readers (what the package exports) against the per-struct switch readers they
 * replaced (test/gen/read-switch.ts, generated from the same facts) in the same run, on:
 * - a DuckDB-written file with 1,000 row groups x 50 columns, every chunk with statistics (hyparquet's
 *   parquetMetadata beside them: it also converts statistics to typed values and builds its schema objects);
 * - a file written by @parquetry/parquet-writer with 5,000 columns x 10 row groups (statistics, encoding stats,
 *   page index offsets);
 * - the largest footer of the upstream corpus.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parquetMetadata } from 'hyparquet';
import { bench, describe } from 'vitest';
import { decodeThrift, encodeThrift, readFileMetaData, readPageHeader, writePageHeader } from '../src/index.js';
import { readFileMetaData as switchFileMetaData, readPageHeader as switchPageHeader } from '../test/gen/read-switch.js';
// @ts-expect-error: plain .mjs tool without types
import { WIDE_FOOTER, makeWideFooter } from '../../../tools/fixtures/make-wide-footer.mjs';
// @ts-expect-error: plain .mjs tool without types (writes with the built packages: `pnpm bench` builds first)
import { WIDE_SCHEMA, makeWideSchema } from '../../../tools/fixtures/make-wide-schema.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function footerOf(bytes: Uint8Array): Uint8Array {
  const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  return bytes.subarray(bytes.length - 8 - len, bytes.length - 8);
}

if (!fs.existsSync(WIDE_FOOTER as string)) await makeWideFooter();
const duck = footerOf(new Uint8Array(fs.readFileSync(WIDE_FOOTER as string)));
const duckRegion = new Uint8Array(fs.readFileSync(WIDE_FOOTER as string)).slice(-duck.length - 8);
const ab = duckRegion.buffer.slice(duckRegion.byteOffset, duckRegion.byteOffset + duckRegion.byteLength);

// 5,000 columns x 10 row groups written by our writer
if (!fs.existsSync(WIDE_SCHEMA as string)) await makeWideSchema();
const ours = footerOf(new Uint8Array(fs.readFileSync(WIDE_SCHEMA as string)));

// the corpus's largest plaintext footer
const corpus = path.resolve(repo, '../shared/parquet-testing');
let largest: { name: string; footer: Uint8Array } | undefined;
const walk = (dir: string): void => {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.parquet')) {
      const b = new Uint8Array(fs.readFileSync(p));
      if (b.length < 12 || String.fromCharCode(...b.subarray(b.length - 4)) !== 'PAR1') continue;
      const f = footerOf(b);
      if (f.length > (largest?.footer.length ?? 0) && f.length < b.length) {
        try {
          decodeThrift(readFileMetaData, f);
          largest = { name: path.relative(corpus, p), footer: f };
        } catch {
          // not decodable: not a benchmark input
        }
      }
    }
  }
};
walk(corpus);

const rowGroups = (m: { row_groups: unknown[] }, n: number) => {
  if (m.row_groups.length !== n) throw new Error(`expected ${n} row groups, got ${m.row_groups.length}`);
};

describe(`DuckDB footer, ${(duck.length / 1e6).toFixed(1)} MB (1,000 row groups x 50 columns)`, () => {
  bench('table-driven readFileMetaData', () => rowGroups(decodeThrift(readFileMetaData, duck).value, 1000));
  bench('per-struct switch readFileMetaData', () => rowGroups(decodeThrift(switchFileMetaData, duck).value, 1000));
  bench('hyparquet parquetMetadata', () => rowGroups(parquetMetadata(ab), 1000));
});

describe(`parquetry-written footer, ${(ours.length / 1e6).toFixed(1)} MB (5,000 columns x 10 row groups)`, () => {
  bench('table-driven readFileMetaData', () => rowGroups(decodeThrift(readFileMetaData, ours).value, 10));
  bench('per-struct switch readFileMetaData', () => rowGroups(decodeThrift(switchFileMetaData, ours).value, 10));
});

if (largest) {
  const { name, footer } = largest;
  describe(`corpus's largest footer: ${name}, ${footer.length} B`, () => {
    bench('table-driven readFileMetaData', () => void decodeThrift(readFileMetaData, footer));
    bench('per-struct switch readFileMetaData', () => void decodeThrift(switchFileMetaData, footer));
  });
}

// page headers: decoded once per page on every read
const header = encodeThrift(writePageHeader, {
  type: 0,
  uncompressed_page_size: 1 << 20,
  compressed_page_size: 400_000,
  crc: 12345,
  data_page_header: { num_values: 100_000, encoding: 0, definition_level_encoding: 3, repetition_level_encoding: 3, statistics: { null_count: 0, min_value: new Uint8Array(8), max_value: new Uint8Array(8) } },
});
describe('10,000 data page headers (with statistics)', () => {
  bench('table-driven readPageHeader', () => {
    for (let i = 0; i < 10_000; i++) decodeThrift(readPageHeader, header);
  });
  bench('per-struct switch readPageHeader', () => {
    for (let i = 0; i < 10_000; i++) decodeThrift(switchPageHeader, header);
  });
});
