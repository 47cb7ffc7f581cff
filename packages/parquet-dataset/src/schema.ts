/**
 * The schema of a dataset from the schemas of its files, and how each file's columns map onto it.
 *
 * Evolution rules (what files of one dataset may differ in):
 * - **Columns present in some files only**: the dataset has the union of the top-level columns, in order of first
 *   appearance (file order); a file without a column reads it as null.
 * - **Nullability**: a column REQUIRED in some files and OPTIONAL (or missing) in others is OPTIONAL. Inside nested
 *   columns likewise (REQUIRED vs OPTIONAL); REPEATED must agree.
 * - **Widening** of top-level columns: INT32 (plain, or a signed INTEGER of 8–32 bits) to INT64 (plain, or a signed
 *   INTEGER(64)), and FLOAT to DOUBLE. The dataset has the wider type; the narrower files' values are widened exactly.
 * - **Anything else** (another physical or logical type, other decimal precision/scale, timestamp unit or UTC flag,
 *   other nested structure) is a `SCHEMA_MISMATCH` naming the column, both files and both types.
 *
 * Types are compared by physical type, length and logical type (LogicalTypes.md, with ConvertedType read as its
 * logical type): https://github.com/apache/parquet-format/blob/master/LogicalTypes.md.
 * @module
 */
import { FieldRepetitionType, ParquetError, Type, TypeNames, type SchemaElement } from '@parquetry/thrift-compact';
import { buildSchemaTree, type SchemaNode, type SchemaTree } from '@parquetry/parquet-levels';

/** How a file's top-level column becomes the dataset's. */
export type Widening = 'none' | 'int64' | 'double';

/** A top-level column of a file against the dataset's. */
export interface ColumnMapping {
  /** The dataset column (top-level field name). */
  name: string;
  /** Whether the file has it (else it reads as null). */
  present: boolean;
  /** How its values are widened to the dataset type. */
  widen: Widening;
}

/** A top-level field in some file: its node and where it came from. */
interface Candidate {
  node: SchemaNode;
  file: string;
}

/** The widening class of a leaf: `int32`, `int64`, `float`, `double`, or undefined (exact match only). */
function numericClass(n: SchemaNode): 'int32' | 'int64' | 'float' | 'double' | undefined {
  if (n.children.length > 0) return undefined;
  const lt = n.logicalType;
  const t = n.element.type;
  if (t === Type.FLOAT && !lt) return 'float';
  if (t === Type.DOUBLE && !lt) return 'double';
  if (t === Type.INT32 && (!lt || (lt.INTEGER && lt.INTEGER.isSigned && Object.keys(lt).length === 1))) return 'int32';
  if (t === Type.INT64 && (!lt || (lt.INTEGER && lt.INTEGER.isSigned && lt.INTEGER.bitWidth === 64 && Object.keys(lt).length === 1))) return 'int64';
  return undefined;
}

/** The logical type as compared: plain signed integers of the physical width count as unannotated. */
function logicalKey(n: SchemaNode): string {
  const lt = n.logicalType;
  if (!lt) return '';
  if (lt.INTEGER && lt.INTEGER.isSigned && ((n.element.type === Type.INT32 && lt.INTEGER.bitWidth === 32) || (n.element.type === Type.INT64 && lt.INTEGER.bitWidth === 64))) return '';
  return JSON.stringify(lt, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/**
 * A text naming a node's type, for messages: physical type (length) and logical type, nested groups by their
 * children.
 * @param n - the node.
 * @returns e.g. `INT64 TIMESTAMP(...)`, `group{a: INT32, b: ...}`.
 */
export function describeType(n: SchemaNode): string {
  if (n.children.length > 0) {
    const kind = n.logicalType ? Object.keys(n.logicalType)[0] ?? 'group' : 'group';
    return `${kind}{${n.children.map((c) => `${c.name}${c.repetition === FieldRepetitionType.REPEATED ? '[]' : ''}: ${describeType(c)}`).join(', ')}}`;
  }
  const t = n.element.type;
  const phys = t === undefined ? 'untyped' : (TypeNames[t] ?? `type ${t}`);
  const len = t === Type.FIXED_LEN_BYTE_ARRAY ? `(${n.element.type_length})` : '';
  const lk = logicalKey(n);
  return lk ? `${phys}${len} ${lk}` : `${phys}${len}`;
}

/** Whether two nodes have the same type: same structure, types and logical types (nullability aside). */
function sameType(a: SchemaNode, b: SchemaNode): boolean {
  if (a.children.length !== b.children.length) return false;
  if (a.children.length === 0) {
    return a.element.type === b.element.type && (a.element.type !== Type.FIXED_LEN_BYTE_ARRAY || a.element.type_length === b.element.type_length) && logicalKey(a) === logicalKey(b);
  }
  if (logicalKey(a) !== logicalKey(b)) return false;
  for (let i = 0; i < a.children.length; i++) {
    const x = a.children[i]!;
    const y = b.children[i]!;
    if (x.name !== y.name) return false;
    if ((x.repetition === FieldRepetitionType.REPEATED) !== (y.repetition === FieldRepetitionType.REPEATED)) return false;
    if (!sameType(x, y)) return false;
  }
  return true;
}

/**
 * How a file's column of type `file` reads as the dataset's type `dataset`.
 * @returns the widening, or undefined when the types are not compatible.
 */
function widening(file: SchemaNode, dataset: SchemaNode): Widening | undefined {
  if (sameType(file, dataset)) return 'none';
  const f = numericClass(file);
  const d = numericClass(dataset);
  if (f === 'int32' && d === 'int64') return 'int64';
  if (f === 'float' && d === 'double') return 'double';
  if (f !== undefined && f === d) return 'none';
  return undefined;
}

function mismatch(name: string, a: Candidate, b: Candidate): ParquetError {
  return new ParquetError(
    'SCHEMA_MISMATCH',
    `parquet-dataset: column '${name}' is ${describeType(a.node)} in '${a.file}' but ${describeType(b.node)} in '${b.file}': ` +
      'files may differ only by missing columns, nullability and the widenings INT32→INT64 and FLOAT→DOUBLE',
  );
}

/** Flattens a node's subtree to elements; `optional(path)` says which nodes become OPTIONAL. */
function flatten(n: SchemaNode, out: SchemaElement[], optional: (n: SchemaNode) => boolean, replace?: SchemaElement): void {
  const el: SchemaElement = { ...(replace ?? n.element) };
  if (optional(n) && el.repetition_type === FieldRepetitionType.REQUIRED) el.repetition_type = FieldRepetitionType.OPTIONAL;
  out.push(el);
  for (const c of n.children) flatten(c, out, optional);
}

/**
 * Unifies the schemas of a dataset's files under the evolution rules above.
 * @param files - each file's schema tree and a name for messages (its path), in dataset order.
 * @returns the dataset's SchemaElement list (root first).
 * @throws ParquetError `SCHEMA_MISMATCH` for columns whose types are not compatible; `INVALID_ARGUMENT` for no files.
 */
export function unifySchemas(files: readonly { schema: SchemaTree; file: string }[]): SchemaElement[] {
  if (files.length === 0) throw new ParquetError('INVALID_ARGUMENT', 'parquet-dataset: no file to take a schema from');
  const order: string[] = [];
  const byName = new Map<string, { best: Candidate; all: Candidate[] }>();
  for (const { schema, file } of files) {
    for (const node of schema.root.children) {
      const cand = { node, file };
      const seen = byName.get(node.name);
      if (!seen) {
        order.push(node.name);
        byName.set(node.name, { best: cand, all: [cand] });
        continue;
      }
      if (widening(node, seen.best.node) !== undefined) {
        // no wider than the best so far
      } else if (widening(seen.best.node, node) !== undefined) seen.best = cand;
      else throw mismatch(node.name, seen.best, cand);
      if ((node.repetition === FieldRepetitionType.REPEATED) !== (seen.best.node.repetition === FieldRepetitionType.REPEATED)) throw mismatch(node.name, seen.best, cand);
      seen.all.push(cand);
    }
  }
  const out: SchemaElement[] = [{ ...files[0]!.schema.root.element, num_children: order.length }];
  for (const name of order) {
    const { best, all } = byName.get(name)!;
    // nodes OPTIONAL in any file (the subtrees have the same shape: match them by path)
    const optionalPaths = new Set<string>();
    const collect = (n: SchemaNode): void => {
      if (n.repetition === FieldRepetitionType.OPTIONAL) optionalPaths.add(n.path.join('\u0000'));
      n.children.forEach(collect);
    };
    all.forEach((c) => collect(c.node));
    const missingSomewhere = all.length < files.length;
    flatten(best.node, out, (n) => optionalPaths.has(n.path.join('\u0000')) || (n === best.node && missingSomewhere));
  }
  return out;
}

/**
 * Maps a file's top-level columns onto the dataset's.
 * @param dataset - the dataset's data columns (no partition columns).
 * @param file - the file's schema.
 * @param path - the file's path, for messages.
 * @returns one mapping per dataset column, in dataset order.
 * @throws ParquetError `SCHEMA_MISMATCH` for a column whose type in the file does not read as the dataset's, or a
 *   REQUIRED dataset column missing from the file.
 */
export function mapColumns(dataset: SchemaTree, file: SchemaTree, path: string): ColumnMapping[] {
  const own = new Map(file.root.children.map((n) => [n.name, n]));
  return dataset.root.children.map((d) => {
    const f = own.get(d.name);
    if (!f) {
      if (d.repetition === FieldRepetitionType.REQUIRED) {
        throw new ParquetError('SCHEMA_MISMATCH', `parquet-dataset: '${path}' has no column '${d.name}', which the dataset's schema declares REQUIRED`);
      }
      return { name: d.name, present: false, widen: 'none' };
    }
    const w = widening(f, d);
    if (w === undefined || (f.repetition === FieldRepetitionType.REPEATED) !== (d.repetition === FieldRepetitionType.REPEATED)) {
      throw new ParquetError(
        'SCHEMA_MISMATCH',
        `parquet-dataset: column '${d.name}' is ${describeType(f)} in '${path}' but ${describeType(d)} in the dataset: ` +
          'files may differ only by missing columns, nullability and the widenings INT32→INT64 and FLOAT→DOUBLE',
      );
    }
    return { name: d.name, present: true, widen: w };
  });
}

/**
 * The dataset's full schema tree: its data columns, then the partition columns.
 * @param data - the data columns' element list (root first).
 * @param partitions - the partition columns' elements.
 * @returns the tree.
 * @throws ParquetError `SCHEMA_MISMATCH` when a partition key is also a column of the files.
 */
export function withPartitions(data: readonly SchemaElement[], partitions: readonly SchemaElement[]): SchemaTree {
  const tree = buildSchemaTree(data);
  for (const p of partitions) {
    if (tree.root.children.some((c) => c.name === p.name)) {
      throw new ParquetError('SCHEMA_MISMATCH', `parquet-dataset: partition key '${p.name}' is also a column of the files (read with partitioning: false, or rename one)`);
    }
  }
  if (partitions.length === 0) return tree;
  return buildSchemaTree([{ ...data[0]!, num_children: (data[0]!.num_children ?? 0) + partitions.length }, ...data.slice(1), ...partitions]);
}
