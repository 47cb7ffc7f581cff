// The page of chromium.test.ts, bundled by esbuild: reads a file over HTTP with fetchSource and reports, row group by
// row group, what the default mapping returned (string lengths) or the typed error it threw; and what Chromium's own
// TextDecoder makes of the same over-long bytes (the silent "" this library must never pass on).
import { fetchSource, openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { builtinCodecs } from '@parquetry/parquet-codecs';

/** One row group's outcome. */
export interface GroupResult {
  rowGroup: number;
  lengths?: (number | null)[];
  error?: { name: string; code: string | undefined; message: string };
}

/** What the page reports. */
export interface PageReport {
  groups: GroupResult[];
  /** Lengths of row group 1's values read as bytes (`strings: 'bytes'`): the data is there. */
  asBytes: number[];
  /** Chromium's TextDecoder on the over-long value: the decoded length, or the error it threw. */
  rawDecoder: { length?: number; error?: string };
  userAgent: string;
}

async function group(file: ParquetFile, g: number): Promise<GroupResult> {
  try {
    const rows = await file.readRows({ rowGroups: [g] });
    return { rowGroup: g, lengths: rows.map((r) => (typeof r.s === 'string' ? r.s.length : null)) };
  } catch (e) {
    const err = e as { name: string; code?: string; message: string };
    return { rowGroup: g, error: { name: err.name, code: err.code, message: err.message } };
  }
}

async function run(url: string): Promise<PageReport> {
  // the strings decompress to ~2^29 bytes from a small file: over the default budget, raised here as a caller would
  const file = await openParquet(await fetchSource(url), { codecs: builtinCodecs(), limits: { maxBytes: 2 ** 31 } });
  const groups: GroupResult[] = [];
  for (let g = 0; g < file.metadata.row_groups.length; g++) groups.push(await group(file, g));
  const bytes = await file.readRows({ rowGroups: [1], strings: 'bytes' });
  const asBytes = bytes.map((r) => (r.s as Uint8Array).length);
  let rawDecoder: PageReport['rawDecoder'];
  try {
    rawDecoder = { length: new TextDecoder().decode(bytes[0]!.s as Uint8Array).length };
  } catch (e) {
    rawDecoder = { error: String(e) };
  }
  return { groups, asBytes, rawDecoder, userAgent: navigator.userAgent };
}

(globalThis as unknown as { runTooLarge: typeof run }).runTooLarge = run;
