/**
 * Shredding (the "record shredding" half of Dremel, as used by Parquet:
 * https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding and
 * Melnik et al., "Dremel: Interactive Analysis of Web-Scale Datasets", VLDB 2010, §4.1):
 * nested JavaScript records → per-leaf definition levels, repetition levels and values.
 *
 * Record conventions: a struct is an object (a missing property reads as null), a list
 * is an array (or a typed array), a map is a `Map` or a plain object, and `null` or
 * `undefined` at any optional depth is null.
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import type { Field, ListField, MapField, SchemaTree, StructField } from './schema.js';

/** The levels and non-null values of one column, as produced by shredding or page decoding. */
export interface ShreddedColumn {
  /** Definition levels (`numLevels` used). */
  def: Int32Array;
  /** Repetition levels (`numLevels` used). */
  rep: Int32Array;
  /** Non-null leaf values in order (one per level equal to the column's max definition level). */
  values: unknown[];
  /** Number of level entries. */
  numLevels: number;
}

class ColumnBuilder implements ShreddedColumn {
  def = new Int32Array(64);
  rep = new Int32Array(64);
  values: unknown[] = [];
  numLevels = 0;

  push(d: number, r: number): void {
    const n = this.numLevels;
    if (n === this.def.length) {
      const nd = new Int32Array(n * 2);
      nd.set(this.def);
      this.def = nd;
      const nr = new Int32Array(n * 2);
      nr.set(this.rep);
      this.rep = nr;
    }
    this.def[n] = d;
    this.rep[n] = r;
    this.numLevels = n + 1;
  }
}

function recordError(field: Field, message: string, row: number): ParquetError {
  const path = field.node.path.join('.') || '<root>';
  return new ParquetError('INVALID_RECORD', `parquet-levels: ${message}, at field '${path}' of record ${row}`);
}

function isListValue(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

/**
 * Shreds records into one level/value stream per leaf column.
 *
 * @param schema - the schema tree ({@link buildSchemaTree}).
 * @param records - the records (objects for the root struct).
 * @returns one {@link ShreddedColumn} per leaf, in column order.
 * @throws ParquetError `INVALID_RECORD` when a required value is null/undefined, a struct is not an object,
 *   a list is not an array, or a map is not a `Map`/object (the message names the field and record).
 */
export function shredRecords(schema: SchemaTree, records: Iterable<unknown>): ShreddedColumn[] {
  const cols: ColumnBuilder[] = schema.columns.map(() => new ColumnBuilder());
  let row = 0;

  const nulls = (f: Field, d: number, r: number): void => {
    const leaves = f.leaves;
    for (let i = 0; i < leaves.length; i++) cols[leaves[i]!]!.push(d, r);
  };

  const write = (f: Field, v: unknown, r: number, parentDef: number): void => {
    if (v === null || v === undefined) {
      if (f.kind === 'list' && f.rule === 'unannotated-repeated') {
        nulls(f, f.def, r); // an absent unannotated repeated field has zero occurrences
        return;
      }
      if (!f.nullable) throw recordError(f, `required ${f.kind} is ${v === null ? 'null' : 'undefined'}`, row);
      nulls(f, parentDef, r);
      return;
    }
    switch (f.kind) {
      case 'leaf': {
        const c = cols[f.column]!;
        c.push(f.def, r);
        c.values.push(v);
        return;
      }
      case 'struct': writeStruct(f, v, r); return;
      case 'list': writeList(f, v, r); return;
      case 'map': writeMap(f, v, r); return;
    }
  };

  const writeStruct = (f: StructField, v: unknown, r: number): void => {
    if (v === null || typeof v !== 'object' || isListValue(v) || v instanceof Map) throw recordError(f, `struct value is not an object (${describe(v)})`, row);
    const obj = v as Record<string, unknown>;
    const fields = f.fields;
    for (let i = 0; i < fields.length; i++) {
      const c = fields[i]!;
      write(c, obj[c.name], r, f.def);
    }
  };

  const writeList = (f: ListField, v: unknown, r: number): void => {
    if (!isListValue(v)) throw recordError(f, `list value is not an array (${describe(v)})`, row);
    const n = v.length;
    if (n === 0) {
      nulls(f, f.def, r);
      return;
    }
    const e = f.element;
    write(e, v[0], r, f.elementDef);
    for (let i = 1; i < n; i++) write(e, v[i], f.elementRep, f.elementDef);
  };

  const writeMap = (f: MapField, v: unknown, r: number): void => {
    let entries: Iterable<[unknown, unknown]>;
    if (v instanceof Map) entries = v as Map<unknown, unknown>;
    else if (typeof v === 'object' && !isListValue(v)) entries = Object.entries(v as object);
    else throw recordError(f, `map value is not a Map or object (${describe(v)})`, row);
    let rr = r;
    let any = false;
    for (const [k, val] of entries) {
      write(f.key, k, rr, f.elementDef);
      if (f.value) write(f.value, val, rr, f.elementDef);
      rr = f.elementRep;
      any = true;
    }
    if (!any) nulls(f, f.def, r);
  };

  for (const rec of records) {
    writeStruct(schema.field, rec, 0);
    row++;
  }
  return cols;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v;
}
