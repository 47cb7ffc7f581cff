/**
 * Table-driven decoding of Thrift structs: one small interpreter walks a struct's field table instead of one
 * generated function per struct. The tables (`parquet/gen/read.ts`) are generated from parquet.thrift by
 * `tools/thrift-codegen`; they are plain array literals, so a bundler keeps only the tables a program reaches.
 *
 * Behaviour (the same as Apache Thrift's generated readers, and as the per-struct readers this replaced): fields
 * are set in wire order; an unknown field id is skipped at any depth; an optional field with an unexpected wire type
 * is skipped; a required one is `THRIFT_WRONG_TYPE`; a list whose element type differs is `THRIFT_WRONG_TYPE`;
 * an absent required field is `THRIFT_REQUIRED_FIELD`, reported for the lowest such id.
 *
 * @module
 */
import type { CompactReader } from './compact-reader.js';

/**
 * How a field (or a list's element) is read: the compact wire type in the low 4 bits (bool 1, i8 3, i16 4,
 * i32/enum 5, i64 6, double 7, binary 8, list 9, struct 12), {@link STRING_FLAG} for a binary read as UTF-8, and
 * {@link REQUIRED_FLAG} for a required field.
 */
export type FieldCode = number;

/** Set in a {@link FieldCode} when a binary field is a UTF-8 string. */
export const STRING_FLAG = 16;
/** Set in a {@link FieldCode} when the field is required. */
export const REQUIRED_FLAG = 32;

/** A struct read by a function of its own instead of a table (`Statistics`, read for every column chunk of a footer). */
export type StructReader = (r: CompactReader) => unknown;

/**
 * One field of a struct table: its name, its {@link FieldCode}, for a list the element's code (0 otherwise), and
 * the table (or reader) of the struct it holds (itself, or as list elements).
 */
export type FieldSpec = readonly [name: string, code: FieldCode, elem?: FieldCode, struct?: StructSpec | StructReader];

/**
 * A struct's table: its name (for messages), its fields indexed by field id, and its required fields as a bit mask
 * (bit `id` set for a required field; parquet.thrift's required fields all have ids below 31).
 */
export type StructSpec = readonly [name: string, fields: readonly (FieldSpec | undefined)[], required?: number];

/**
 * Reads one struct described by `spec`.
 * @param r - the compact reader, positioned at the start of the struct.
 * @param spec - the struct's table.
 * @returns the decoded struct (fields in wire order; absent optional fields absent).
 * @throws ParquetError `THRIFT_WRONG_TYPE` for a required field or a list element of the wrong wire type,
 *   `THRIFT_REQUIRED_FIELD` for an absent required field, and the reader's own codes (`EOF`, `THRIFT_*`,
 *   `VARINT_TOO_LONG`, `INT64_NOT_SAFE`) for malformed bytes.
 */
export function readStruct(r: CompactReader, spec: StructSpec): Record<string, unknown> {
  const fields = spec[1];
  const v: Record<string, unknown> = {};
  let seen = 0;
  r.structBegin();
  for (let id = r.fieldBegin(); id !== 0; id = r.fieldBegin()) {
    const f = id > 0 ? fields[id] : undefined;
    if (f !== undefined) {
      const code = f[1];
      if (r.is(code & 15)) {
        v[f[0]] = (code & 15) === 9 ? readList(r, spec, f) : readValue(r, code, f[3]);
        // ids of 32 and up would wrap onto the bits of low ids (a shift count is taken mod 32); no required field
        // has one (the generator checks), so they need no bit
        if (id < 32) seen |= 1 << id;
        continue;
      }
      if (code & REQUIRED_FLAG) r.expect(code & 15, spec[0], f[0]);
    }
    r.skip(r.fieldType);
  }
  r.structEnd();
  const required = spec[2] ?? 0;
  if ((seen & required) !== required) {
    for (let id = 1; id < 31; id++) {
      if (required & (1 << id) & ~seen) r.missing(spec[0], (fields[id] as FieldSpec)[0]);
    }
  }
  return v;
}

function readList(r: CompactReader, spec: StructSpec, f: FieldSpec): unknown[] {
  const elem = f[2] ?? 0;
  const wire = elem & 15;
  const n = r.listBegin();
  if (n > 0) {
    const t = r.elemType;
    if (t !== wire && !(wire === 1 && t === 2)) r.expectElem(wire, `${spec[0]}.${f[0]}`);
  }
  const a: unknown[] = [];
  const sub = f[3];
  for (let i = 0; i < n; i++) a.push(readValue(r, elem, sub));
  r.listEnd();
  return a;
}

function readValue(r: CompactReader, code: FieldCode, sub: StructSpec | StructReader | undefined): unknown {
  switch (code & 15) {
    case 1:
      return r.bool();
    case 3:
      return r.byte();
    case 4:
      return r.i16();
    case 5:
      return r.i32();
    case 6:
      return r.i64();
    case 7:
      return r.double();
    case 8:
      return code & STRING_FLAG ? r.string() : r.binary();
    default:
      // 12: the generator emits no other code (parquet.thrift has no list of lists, sets or maps)
      return typeof sub === 'function' ? sub(r) : readStruct(r, sub as StructSpec);
  }
}
