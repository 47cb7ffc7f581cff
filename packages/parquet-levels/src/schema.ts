/**
 * The schema tree built from the flat, depth-first `SchemaElement` list of the footer
 * (https://github.com/apache/parquet-format/blob/master/README.md#metadata, "num_children"),
 * the maximum definition/repetition levels of every node
 * (https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding), and
 * the logical interpretation of groups as structs, lists and maps including every
 * backward-compatibility rule of
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#nested-types.
 *
 * @module
 */
import { ConvertedType, FieldRepetitionType, ParquetError, Type, TypeNames } from '@parquetry/thrift-compact';
import type { LogicalType, SchemaElement } from '@parquetry/thrift-compact';
import { resolveLogicalType } from './logical-type.js';

/** Deepest schema nesting accepted; deeper (hostile) schemas throw `INVALID_SCHEMA`. */
export const MAX_SCHEMA_DEPTH = 256;

/**
 * Largest DECIMAL precision accepted on BYTE_ARRAY, whose precision the spec leaves unbounded (and on
 * FIXED_LEN_BYTE_ARRAY, whatever its length holds): 2^16 digits, far above other engines' limits (pyarrow and
 * arrow-rs: 76, DuckDB: 38, this project's writer: 1000), and low enough that every value of the column stays a
 * string JavaScript can build.
 */
const MAX_DECIMAL_PRECISION = 65536;

/** One physical node of the schema tree (one `SchemaElement`). */
export interface SchemaNode {
  /** The footer's element. */
  readonly element: SchemaElement;
  /** Element name. */
  readonly name: string;
  /** Names from the first child of the root down to this node (`path_in_schema` for leaves). */
  readonly path: readonly string[];
  /** Repetition; the root and elements without one count as REQUIRED. */
  readonly repetition: FieldRepetitionType;
  /** Maximum definition level of this node (number of OPTIONAL/REPEATED nodes from the root to here, inclusive). */
  readonly maxDef: number;
  /** Maximum repetition level of this node (number of REPEATED nodes from the root to here, inclusive). */
  readonly maxRep: number;
  /** Logical type from `logicalType`, or from `converted_type` for old files. */
  readonly logicalType: LogicalType | undefined;
  /** Child nodes (empty for a primitive). */
  readonly children: readonly SchemaNode[];
  /** Index into the flat element list. */
  readonly elementIndex: number;
  /** Leaf (column) index in depth-first order, or -1 for a group. */
  readonly columnIndex: number;
}

/** A primitive leaf: one column chunk per row group. */
export interface ColumnDescriptor {
  /** Leaf index in depth-first order (= position in a row group's `columns`). */
  readonly index: number;
  /** The leaf node. */
  readonly node: SchemaNode;
  /** `path_in_schema`. */
  readonly path: readonly string[];
  /** Dotted path, for messages. */
  readonly pathString: string;
  /** Physical type. */
  readonly type: Type;
  /** FIXED_LEN_BYTE_ARRAY length, when set. */
  readonly typeLength: number | undefined;
  /** Maximum definition level. */
  readonly maxDef: number;
  /** Maximum repetition level. */
  readonly maxRep: number;
  /** `repeatedDefs[k - 1]` is the definition level of the REPEATED ancestor (or self) with repetition level k. */
  readonly repeatedDefs: readonly number[];
  /** The logical leaf field that reads this column. */
  readonly field: LeafField;
}

/** Which rule of LogicalTypes.md made a group a list. */
export type ListRule =
  /** The standard 3-level `LIST` (or any repeated group whose single non-repeated child is the element: rule 5). */
  | 'three-level'
  /** Rule 1: the repeated field is a primitive. */
  | 'repeated-primitive'
  /** Rule 2: the repeated group has more than one field. */
  | 'repeated-group-multiple-fields'
  /** Rule 3: the repeated group's single field is itself repeated. */
  | 'repeated-group-repeated-child'
  /** Rule 4: the repeated group is named `array`. */
  | 'array-name'
  /** Rule 4: the repeated group is named `<list name>_tuple`. */
  | 'tuple-name'
  /** A repeated field outside any LIST/MAP: a required list of required elements. */
  | 'unannotated-repeated';

/** Which rule made a group a map. */
export type MapRule = 'map' | 'map-key-value';

/** What every logical field has. */
export interface FieldBase {
  /** Property name in a record object (the node's name; `''` for the root). */
  readonly name: string;
  /** The physical node whose type this field reads. */
  readonly node: SchemaNode;
  /** True when the value may be null (the node is OPTIONAL and not consumed by a list). */
  readonly nullable: boolean;
  /** Definition level at which the value is present (non-null). */
  readonly def: number;
  /** Number of lists/maps enclosing this value (its repetition depth). */
  readonly repDepth: number;
  /** Column indexes of every leaf under this field, ascending. */
  readonly leaves: readonly number[];
}

/** A primitive value. */
export interface LeafField extends FieldBase {
  /** Discriminant. */
  readonly kind: 'leaf';
  /** Column index. */
  readonly column: number;
}

/** A group read as an object with one property per child. */
export interface StructField extends FieldBase {
  /** Discriminant. */
  readonly kind: 'struct';
  /** Child fields in schema order. */
  readonly fields: readonly Field[];
}

/** A list (from `LIST`, a legacy 2-level list, or an unannotated repeated field). */
export interface ListField extends FieldBase {
  /** Discriminant. */
  readonly kind: 'list';
  /** Which LogicalTypes.md rule applied. */
  readonly rule: ListRule;
  /** The REPEATED node. */
  readonly repeated: SchemaNode;
  /** Definition level at which the list has at least one element (= `repeated.maxDef`). */
  readonly elementDef: number;
  /** Repetition level that starts a new element (= `repeated.maxRep`). */
  readonly elementRep: number;
  /** The element field. */
  readonly element: Field;
}

/** A map (from `MAP`, or `MAP_KEY_VALUE` used in its place). */
export interface MapField extends FieldBase {
  /** Discriminant. */
  readonly kind: 'map';
  /** Which annotation applied. */
  readonly rule: MapRule;
  /** The REPEATED key/value group. */
  readonly repeated: SchemaNode;
  /** Definition level at which the map has at least one entry. */
  readonly elementDef: number;
  /** Repetition level that starts a new entry. */
  readonly elementRep: number;
  /** The key field (first child, whatever its name; may be nullable in old files). */
  readonly key: Field;
  /** The value field (second child), or `undefined` for a key-only map. */
  readonly value: Field | undefined;
}

/** A logical field. */
export type Field = LeafField | StructField | ListField | MapField;

/** The schema of a file: physical tree, leaves, and logical interpretation. */
export interface SchemaTree {
  /** The root node (element 0). */
  readonly root: SchemaNode;
  /** Every leaf in column order. */
  readonly columns: readonly ColumnDescriptor[];
  /** The root read as a struct of the top-level fields. */
  readonly field: StructField;
  /** The flat element list it was built from. */
  readonly elements: readonly SchemaElement[];
}

function schemaError(message: string): ParquetError {
  return new ParquetError('INVALID_SCHEMA', `parquet-levels: ${message}`);
}

/**
 * Checks every DECIMAL annotation of a file's schema, from `logicalType` or the legacy `converted_type` with the
 * element's `scale`/`precision` (LogicalTypes.md, DECIMAL): it annotates INT32, INT64, FIXED_LEN_BYTE_ARRAY or
 * BYTE_ARRAY; 1 <= precision <= what the physical type holds (9 digits in INT32, 18 in INT64,
 * floor(log10(2^(8n-1) - 1)) in FIXED_LEN_BYTE_ARRAY(n), 65,536 in BYTE_ARRAY, a bound of the reader's own: the
 * spec sets none); 0 <= scale <= precision. arrow-rs and Arrow C++ refuse such schemas too. A reader calls it when
 * it opens a file: values are read by the annotation, and an absurd scale makes strings no runtime can build. (Not
 * part of {@link buildSchemaTree}, whose callers also build descriptors for conversions outside these rules.)
 * @param tree - the schema.
 * @throws ParquetError `INVALID_SCHEMA` naming the field, its precision and scale, and the rule broken.
 */
export function checkDecimals(tree: SchemaTree): void {
  const walk = (node: SchemaNode): void => {
    const e = node.element;
    const d = node.logicalType?.DECIMAL;
    // a converted_type DECIMAL without precision resolves to no logical type
    if (d || (e.converted_type === ConvertedType.DECIMAL && !node.logicalType)) {
      const p = d ? d.precision : e.precision!;
      const s = d ? d.scale : (e.scale ?? 0);
      const t = e.type!;
      const n = e.type_length ?? 0;
      const max = t === Type.INT32 ? 9 : t === Type.INT64 ? 18 : t === Type.BYTE_ARRAY ? MAX_DECIMAL_PRECISION : t === Type.FIXED_LEN_BYTE_ARRAY ? Math.min(MAX_DECIMAL_PRECISION, Math.floor((8 * n - 1) * Math.log10(2))) : 0;
      const rule = !max ? 'DECIMAL annotates INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY' : !(p >= 1 && p <= max) ? `precision ${p} is outside 1..${max}` : !(s >= 0 && s <= p) ? `scale ${s} is outside 0..precision` : '';
      if (rule) {
        const on = t === undefined ? 'a group' : TypeNames[t] + (t === Type.FIXED_LEN_BYTE_ARRAY ? `(${n})` : '');
        throw schemaError(`field '${node.path.join('.')}' (schema element ${node.elementIndex}): ${d && e.logicalType?.DECIMAL ? '' : 'converted_type '}DECIMAL(${p}, ${s}) on ${on}: ${rule}`);
      }
    }
    node.children.forEach(walk);
  };
  walk(tree.root);
}

/**
 * Builds the schema tree from the footer's flat element list.
 *
 * @param elements - `FileMetaData.schema`: the root first, then each node followed by its `num_children` descendants.
 * @returns the tree with levels, columns and the logical (struct/list/map) interpretation.
 * @throws ParquetError `INVALID_SCHEMA` when the list is empty, `num_children` runs past its end or leaves elements
 *   over, a primitive has children, or nesting is deeper than {@link MAX_SCHEMA_DEPTH} (DECIMAL annotations are
 *   checked by {@link checkDecimals}).
 */
export function buildSchemaTree(elements: readonly SchemaElement[]): SchemaTree {
  if (elements.length === 0) throw schemaError('empty schema element list, expected at least the root');
  let next = 0;
  let columnCount = 0;
  const leafRepeatedDefs: (readonly number[])[] = [];

  const build = (
    parentPath: readonly string[], parentDef: number, parentRep: number, parentRepDefs: readonly number[], depth: number, isRoot: boolean,
  ): SchemaNode => {
    if (depth > MAX_SCHEMA_DEPTH) throw schemaError(`schema nesting deeper than ${MAX_SCHEMA_DEPTH} at element ${next}`);
    const elementIndex = next;
    const element = elements[next++];
    if (element === undefined) {
      throw schemaError(`num_children runs past the end of the schema: element ${elementIndex} missing, list has ${elements.length}`);
    }
    const repetition: FieldRepetitionType = isRoot ? FieldRepetitionType.REQUIRED : (element.repetition_type ?? FieldRepetitionType.REQUIRED);
    if (repetition !== FieldRepetitionType.REQUIRED && repetition !== FieldRepetitionType.OPTIONAL && repetition !== FieldRepetitionType.REPEATED) {
      throw schemaError(`element ${elementIndex} ('${element.name}') has unknown repetition_type ${String(repetition)}`);
    }
    const maxDef = parentDef + (repetition === FieldRepetitionType.REQUIRED ? 0 : 1);
    const maxRep = parentRep + (repetition === FieldRepetitionType.REPEATED ? 1 : 0);
    const path = isRoot ? [] : [...parentPath, element.name];
    const repDefs = repetition === FieldRepetitionType.REPEATED ? [...parentRepDefs, maxDef] : parentRepDefs;
    const numChildren = element.num_children ?? 0;
    const isGroup = isRoot || element.type === undefined;
    if (!isGroup && numChildren > 0) {
      throw schemaError(`primitive element ${elementIndex} ('${path.join('.')}') has num_children ${numChildren}, expected 0`);
    }
    if (numChildren < 0 || numChildren > elements.length - next) {
      throw schemaError(`element ${elementIndex} ('${path.join('.') || element.name}') has num_children ${numChildren} but only ${elements.length - next} elements follow`);
    }
    const children: SchemaNode[] = [];
    const node: SchemaNode = {
      element,
      name: element.name,
      path,
      repetition,
      maxDef,
      maxRep,
      logicalType: resolveLogicalType(element),
      children,
      elementIndex,
      columnIndex: isGroup ? -1 : columnCount++,
    };
    if (!isGroup) leafRepeatedDefs.push(repDefs);
    for (let i = 0; i < numChildren; i++) children.push(build(path, maxDef, maxRep, repDefs, depth + 1, false));
    if (numChildren > 1) {
      // rows, projections, filters and Arrow fields address a group's fields by name: a second field of the same
      // name would be dropped from every row without a word (DuckDB renames it, pyarrow's read_table refuses it)
      const seen = new Map<string, number>();
      for (const c of children) {
        const first = seen.get(c.name);
        if (first !== undefined) throw schemaError(`two fields named '${c.name}' in ${isRoot ? 'the root' : `group '${path.join('.')}'`} (schema elements ${first} and ${c.elementIndex})`);
        seen.set(c.name, c.elementIndex);
      }
    }
    return node;
  };

  const root = build([], 0, 0, [], 0, true);
  if (next !== elements.length) {
    throw schemaError(`root's num_children covers ${next} of ${elements.length} schema elements, expected all`);
  }
  const columns: ColumnDescriptor[] = new Array(leafRepeatedDefs.length);
  const field = interpretStruct(root, false);
  const leafFields: LeafField[] = [];
  collectLeaves(field, leafFields);
  for (const lf of leafFields) {
    const node = lf.node;
    const repeatedDefs = leafRepeatedDefs[lf.column]!;
    columns[lf.column] = {
      index: lf.column,
      node,
      path: node.path,
      pathString: node.path.join('.'),
      type: node.element.type as Type,
      typeLength: node.element.type_length,
      maxDef: node.maxDef,
      maxRep: node.maxRep,
      repeatedDefs,
      field: lf,
    };
  }
  return { root, columns, field, elements };
}

function collectLeaves(f: Field, out: LeafField[]): void {
  switch (f.kind) {
    case 'leaf': out.push(f); break;
    case 'struct': for (const c of f.fields) collectLeaves(c, out); break;
    case 'list': collectLeaves(f.element, out); break;
    case 'map': collectLeaves(f.key, out); if (f.value) collectLeaves(f.value, out); break;
  }
}

function leavesOf(node: SchemaNode, out: number[] = []): number[] {
  if (node.columnIndex >= 0) out.push(node.columnIndex);
  for (const c of node.children) leavesOf(c, out);
  return out;
}

function isListAnnotated(node: SchemaNode): boolean {
  return node.element.logicalType?.LIST !== undefined || node.element.converted_type === ConvertedType.LIST;
}

function mapAnnotation(node: SchemaNode): MapRule | undefined {
  if (node.element.logicalType?.MAP !== undefined || node.element.converted_type === ConvertedType.MAP) return 'map';
  if (node.element.converted_type === ConvertedType.MAP_KEY_VALUE) return 'map-key-value';
  return undefined;
}

/**
 * The field reading `node` where it stands in its parent (its own repetition applies).
 * A REPEATED node outside a LIST/MAP is an unannotated list: a required list of required elements.
 */
function interpretField(node: SchemaNode): Field {
  if (node.repetition === FieldRepetitionType.REPEATED) {
    const element = interpretType(node, false);
    return {
      kind: 'list',
      rule: 'unannotated-repeated',
      name: node.name,
      node,
      nullable: false,
      def: node.maxDef - 1,
      repDepth: node.maxRep - 1,
      leaves: element.leaves,
      repeated: node,
      elementDef: node.maxDef,
      elementRep: node.maxRep,
      element,
    };
  }
  return interpretType(node, node.repetition === FieldRepetitionType.OPTIONAL);
}

/** The field reading the *type* of `node`; its repetition is handled by the caller. */
function interpretType(node: SchemaNode, nullable: boolean): Field {
  const base = { name: node.name, node, nullable, def: node.maxDef, repDepth: node.maxRep };
  if (node.columnIndex >= 0) return { kind: 'leaf', ...base, leaves: [node.columnIndex], column: node.columnIndex };
  const only = node.children.length === 1 ? node.children[0] : undefined;
  if (only !== undefined && only.repetition === FieldRepetitionType.REPEATED) {
    if (isListAnnotated(node)) {
      const r = only;
      let rule: ListRule;
      if (r.columnIndex >= 0) rule = 'repeated-primitive';
      else if (r.children.length !== 1) rule = 'repeated-group-multiple-fields';
      else if (r.children[0]!.repetition === FieldRepetitionType.REPEATED) rule = 'repeated-group-repeated-child';
      else if (r.name === 'array') rule = 'array-name';
      else if (r.name === `${node.name}_tuple`) rule = 'tuple-name';
      else rule = 'three-level';
      const element = rule === 'three-level' ? interpretField(r.children[0]!) : interpretType(r, false);
      return {
        kind: 'list', rule, ...base, leaves: element.leaves, repeated: r, elementDef: r.maxDef, elementRep: r.maxRep, element,
      };
    }
    const mapRule = mapAnnotation(node);
    if (mapRule !== undefined && only.columnIndex < 0 && (only.children.length === 1 || only.children.length === 2)) {
      const key = interpretField(only.children[0]!);
      const value = only.children[1] === undefined ? undefined : interpretField(only.children[1]);
      return {
        kind: 'map', rule: mapRule, ...base, leaves: leavesOf(only), repeated: only, elementDef: only.maxDef, elementRep: only.maxRep, key, value,
      };
    }
  }
  return interpretStruct(node, nullable);
}

function interpretStruct(node: SchemaNode, nullable: boolean): StructField {
  const fields = node.children.map(interpretField);
  return { kind: 'struct', name: node.name, node, nullable, def: node.maxDef, repDepth: node.maxRep, leaves: leavesOf(node), fields };
}
