/**
 * Files written by Parquetry's writer for the two Python peers with their own Parquet implementation, polars and
 * fastparquet, which fail a whole file on some types (polars: any GEOMETRY/GEOGRAPHY column, INTERVAL; fastparquet:
 * GEOGRAPHY), so that the writer interop corpus (src/writer-corpus.ts, whose every matrix file holds every type)
 * would test nothing else with them:
 * - type probes: one file per leaf type of {@link LEAF_TYPES}, the type in every nesting of {@link NESTINGS}, so a
 *   type a peer cannot read is seen alone (the tests assert each peer's exact error per excluded type);
 * - a matrix without the types some Python peer rejects file-wide ({@link FILE_LEVEL_TYPES}): the 9 nestings in 3
 *   files × data page V1/V2, every other leaf type in each nesting, encodings (but ALP, which polars cannot parse
 *   in the footer) and codecs (but LZO) rotating over the columns, as the interop matrix does, with a dictionary
 *   fallback layout in some files.
 * Expected rows are the canonical forms (tools/peers/canon.mjs) computed by writer-corpus.ts's generators from
 * their own numbers, not by the writer or the reader.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/LogicalTypes.md and
 * https://github.com/apache/parquet-format/blob/master/Encodings.md.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CodecMap } from '@parquetry/parquet-codecs';
import { type ColumnOptions, type EncodingName, type FieldSpec, type WriterOptions, writeParquet } from '@parquetry/parquet-writer';
import { CODECS, type CorpusColumn, type CorpusEncoding, type CorpusFile, ENCODINGS_BY_PHYSICAL, LEAF_TYPES, type LeafType, NESTINGS, type Nesting, Supply } from './writer-corpus.js';

/** Leaf types that make polars or fastparquet fail the whole file (left out of the matrix; each has a probe). */
export const FILE_LEVEL_TYPES: readonly string[] = ['geometry', 'geography', 'interval'];

/** Rows per file. */
export const PY_ROWS = 40;

const LAYOUTS: readonly CorpusFile['layout'][] = [{}, { pageRows: 5, rowGroupRows: 16 }, { pageRows: 7, rowGroupRows: 25, dictionaryPageSize: 64 }];
const PY_CODECS = CODECS.filter((c) => c !== 'LZO');

interface PlannedColumn extends CorpusColumn {
  leaf: LeafType;
  nest: Nesting;
  supply: Supply;
}

function column(leaf: LeafType, nest: Nesting, encoding: CorpusEncoding, codec: CorpusColumn['codec'], name: string): PlannedColumn {
  return { name, type: leaf.name, physical: leaf.physical, nesting: nest.name, encoding, codec, leafPath: `${name}${nest.leafPath}`, leaf, nest, supply: new Supply(leaf.values, encoding === 'dict' ? 3 : 1) };
}

async function write(dir: string, name: string, covers: string, pageVersion: 1 | 2, layout: CorpusFile['layout'], columns: PlannedColumn[], codecs: CodecMap): Promise<CorpusFile> {
  const schema: Record<string, FieldSpec> = {};
  const options: Record<string, ColumnOptions> = {};
  for (const c of columns) {
    schema[c.name] = c.nest.spec(c.leaf.spec);
    const leaf: ColumnOptions = c.encoding === 'dict' ? { dictionary: true, encoding: 'PLAIN' } : { dictionary: false, encoding: c.encoding as EncodingName };
    if (c.leafPath === c.name) options[c.name] = { compression: c.codec, ...leaf };
    else Object.assign(options, { [c.name]: { compression: c.codec }, [c.leafPath]: leaf });
  }
  const js: Record<string, unknown>[] = [];
  const expected: Record<string, unknown>[] = [];
  for (let r = 0; r < PY_ROWS; r++) {
    const a: Record<string, unknown> = {};
    const e: Record<string, unknown> = {};
    for (const c of columns) {
      const cell = c.nest.value(r, c.supply);
      a[c.name] = cell.js;
      e[c.name] = cell.canon;
    }
    js.push(a);
    expected.push(e);
  }
  const wo: WriterOptions = { schema, columns: options, pageVersion, ...layout };
  const file = path.join(dir, name);
  fs.writeFileSync(file, await writeParquet(js, { ...wo, codecs }));
  return { name, file, covers, pageVersion, rows: PY_ROWS, layout, columns: columns.map(({ leaf: _l, nest: _n, supply: _s, ...c }) => c), expected };
}

/**
 * Writes the type probes (`type-<leaf>.parquet`) and the matrix (`pymatrix-<g>-v<1|2>.parquet`) into `dir`.
 * @param dir - output directory (created if needed).
 * @param codecs - the codecs to write with (`allCodecs()`).
 * @returns the probes (by leaf type name) and the matrix files.
 * @throws ParquetError from the writer when it rejects a planned file (a writer bug: the plans are valid).
 */
export async function generatePythonPeerCorpus(dir: string, codecs: CodecMap): Promise<{ probes: Map<string, CorpusFile>; matrix: CorpusFile[] }> {
  fs.mkdirSync(dir, { recursive: true });
  const probes = new Map<string, CorpusFile>();
  for (const [t, leaf] of LEAF_TYPES.entries()) {
    const columns = NESTINGS.map((nest, n) => column(leaf, nest, 'PLAIN', PY_CODECS[(t + n) % 2 === 0 ? 0 : 1]!, `${leaf.name}_${nest.name}`));
    probes.set(leaf.name, await write(dir, `type-${leaf.name}.parquet`, `${leaf.name} in every nesting, PLAIN, uncompressed or SNAPPY`, 1, {}, columns, codecs));
  }
  const matrix: CorpusFile[] = [];
  const groups = [
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
  ];
  for (const [g, group] of groups.entries()) {
    for (const v of [1, 2] as const) {
      const columns: PlannedColumn[] = [];
      for (const n of group) {
        const nest = NESTINGS[n]!;
        LEAF_TYPES.forEach((leaf, t) => {
          if (FILE_LEVEL_TYPES.includes(leaf.name)) return;
          const encs = ENCODINGS_BY_PHYSICAL[leaf.physical].filter((e) => e !== 'ALP');
          const e = (t + n + v) % encs.length;
          const codec = PY_CODECS[(t + 2 * n + e + 3 * v) % PY_CODECS.length]!;
          columns.push(column(leaf, nest, encs[e]!, codec, `${leaf.name}_${encs[e]!.toLowerCase()}_${nest.name}`));
        });
      }
      const layout = LAYOUTS[(2 * g + v) % LAYOUTS.length]!;
      matrix.push(await write(dir, `pymatrix-${g + 1}-v${v}.parquet`, `every leaf type but ${FILE_LEVEL_TYPES.join('/')}, nestings ${group.map((n) => NESTINGS[n]!.name).join(', ')}; data page V${v}`, v, layout, columns, codecs));
    }
  }
  return { probes, matrix };
}
