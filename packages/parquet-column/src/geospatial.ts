/**
 * Write-side `GeospatialStatistics` of GEOMETRY and GEOGRAPHY columns: the bounding box of all coordinates and the
 * distinct geospatial type codes, read from the WKB values.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/Geospatial.md ("Statistics", "Bounding Box",
 * "Geospatial Types") and the GEOMETRY/GEOGRAPHY sections of
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md.
 *
 * - WKB is read in both byte orders, with ISO dimension codes (1001 Point Z, 2001 Point M, 3001 Point ZM) and with
 *   the extended (EWKB) flags 0x80000000 (Z), 0x40000000 (M) and 0x20000000 (SRID follows); the recorded type codes
 *   are always ISO. Types 1–7 (Point … GeometryCollection) are understood; a collection's members are read for
 *   their coordinates, the recorded type is that of each top-level value.
 * - Bounding box: min/max of x, y, z and m over every coordinate, NaN skipped per dimension (POINT EMPTY is a point
 *   of NaNs); z and m ranges are omitted when no coordinate has one, the box when x or y has no value. x is never
 *   wrapped around the antimeridian (xmin ≤ xmax always), which is a valid though not always the tightest box.
 * - GEOGRAPHY: edges are geodesics, not straight lines, so the box of the vertices does not bound a value with an
 *   edge (a line between two points at latitude 60 on opposite meridians passes near the pole). The box is written
 *   only when no value has an edge (only points and empty lines/rings) and every vertex is inside the canonical
 *   ranges x ∈ [-180, 180], y ∈ [-90, 90]; otherwise only the types are written.
 * - A value that is not well-formed WKB (bad byte order, unknown type, truncated, trailing bytes, nesting deeper than
 *   {@link MAX_WKB_DEPTH}) does not throw: the column is BYTE_ARRAY and the writer does not validate WKB, so a
 *   value other writers would accept must not fail the write; instead the chunk gets no geospatial statistics at
 *   all ({@link GeospatialStatisticsBuilder.toThrift} returns undefined), which is always correct.
 * @module
 */
import type { ByteArrays } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { ParquetError, Type, type BoundingBox, type GeospatialStatistics } from '@parquetry/thrift-compact';

/** Deepest nesting of geometry collections read; deeper values are treated as malformed. */
export const MAX_WKB_DEPTH = 64;

const EWKB_Z = 0x80000000;
const EWKB_M = 0x40000000;
const EWKB_SRID = 0x20000000;
const NO_BYTES = new DataView(new ArrayBuffer(0));

/**
 * Accumulates the `GeospatialStatistics` of a GEOMETRY or GEOGRAPHY column from its WKB values; see the module
 * comment for the rules.
 */
export class GeospatialStatisticsBuilder {
  /** The column. */
  readonly column: ColumnDescriptor;
  /** Whether the column is GEOGRAPHY (else GEOMETRY). */
  readonly geography: boolean;
  private valid = true;
  private count = 0;
  private edges = false;
  private xmin = Infinity;
  private xmax = -Infinity;
  private ymin = Infinity;
  private ymax = -Infinity;
  private zmin = Infinity;
  private zmax = -Infinity;
  private mmin = Infinity;
  private mmax = -Infinity;
  /** `types[dim * 8 + base]` is 1 when ISO code `dim * 1000 + base` was seen. */
  private readonly types = new Uint8Array(32);
  // parse state of the current value
  private view: DataView = NO_BYTES;
  private pos = 0;
  private end = 0;

  /**
   * @param column - a BYTE_ARRAY column annotated GEOMETRY or GEOGRAPHY.
   * @throws ParquetError `INVALID_ARGUMENT` when the column is not one.
   */
  constructor(column: ColumnDescriptor) {
    const lt = column.node.logicalType;
    if (column.type !== Type.BYTE_ARRAY || !(lt?.GEOMETRY || lt?.GEOGRAPHY)) {
      throw new ParquetError('INVALID_ARGUMENT', `parquet-column: geospatial statistics need a BYTE_ARRAY column annotated GEOMETRY or GEOGRAPHY, column '${column.pathString}' is not`);
    }
    this.column = column;
    this.geography = !!lt.GEOGRAPHY;
  }

  /**
   * Adds the non-null WKB values `values[start, end)`. A malformed value makes the statistics unavailable (see the
   * module comment); it does not throw.
   * @param values - the values.
   * @param start - first value.
   * @param end - end (exclusive).
   * @throws ParquetError `OUT_OF_RANGE` when `[start, end)` is not inside the values; `INVALID_ARGUMENT` when the
   *   offsets of the range point outside `data` or decrease.
   */
  update(values: ByteArrays, start: number, end: number): void {
    const where = `parquet-column: geospatial statistics of column '${this.column.pathString}'`;
    if (!(typeof values === 'object' && values !== null && values.offsets instanceof Int32Array && values.data instanceof Uint8Array)) {
      throw new ParquetError('INVALID_ARGUMENT', `${where}: expected {offsets: Int32Array, data: Uint8Array}`);
    }
    const off = values.offsets;
    const data = values.data;
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end < off.length)) {
      throw new ParquetError('OUT_OF_RANGE', `${where}: value range [${String(start)}, ${String(end)}) is not inside the ${Math.max(0, off.length - 1)} values given`);
    }
    if (start === end) return;
    if (!(off[start]! >= 0 && off[end]! <= data.length)) {
      throw new ParquetError('INVALID_ARGUMENT', `${where}: offsets of values [${start}, ${end}) span bytes [${off[start]}, ${off[end]}), outside the ${data.length} data bytes`);
    }
    this.count += end - start;
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let i = start; i < end; i++) {
      const s = off[i]!;
      const e = off[i + 1]!;
      if (e < s) throw new ParquetError('INVALID_ARGUMENT', `${where}: byte-array offsets decrease at value ${i}`);
      if (!this.valid) continue; // the offsets are still checked
      this.pos = s;
      this.end = e;
      const code = this.geometry(0);
      if (code < 0 || this.pos !== e) this.valid = false;
      else this.types[code] = 1;
    }
    this.view = NO_BYTES; // do not keep the page's buffer alive
  }

  /**
   * Adds the statistics of `other` (e.g. a page's into the chunk's).
   * @param other - a builder of a column of the same kind (GEOMETRY or GEOGRAPHY).
   * @throws ParquetError `INVALID_ARGUMENT` when one column is GEOMETRY and the other GEOGRAPHY.
   */
  merge(other: GeospatialStatisticsBuilder): void {
    if (other.geography !== this.geography) {
      throw new ParquetError('INVALID_ARGUMENT', `parquet-column: geospatial statistics of column '${this.column.pathString}' cannot merge those of '${other.column.pathString}' (GEOMETRY and GEOGRAPHY)`);
    }
    this.count += other.count;
    this.valid &&= other.valid;
    this.edges ||= other.edges;
    if (other.xmin < this.xmin) this.xmin = other.xmin;
    if (other.xmax > this.xmax) this.xmax = other.xmax;
    if (other.ymin < this.ymin) this.ymin = other.ymin;
    if (other.ymax > this.ymax) this.ymax = other.ymax;
    if (other.zmin < this.zmin) this.zmin = other.zmin;
    if (other.zmax > this.zmax) this.zmax = other.zmax;
    if (other.mmin < this.mmin) this.mmin = other.mmin;
    if (other.mmax > this.mmax) this.mmax = other.mmax;
    for (let i = 0; i < 32; i++) this.types[i]! |= other.types[i]!;
  }

  /** Forgets everything added. */
  reset(): void {
    this.valid = true;
    this.count = 0;
    this.edges = false;
    this.xmin = this.ymin = this.zmin = this.mmin = Infinity;
    this.xmax = this.ymax = this.zmax = this.mmax = -Infinity;
    this.types.fill(0);
  }

  /**
   * The thrift `GeospatialStatistics`.
   * @returns the bounding box (when there is one, see the module comment) and the sorted distinct ISO type codes;
   *   undefined when there were no values or a value was not well-formed WKB.
   */
  toThrift(): GeospatialStatistics | undefined {
    if (!this.valid || this.count === 0) return undefined;
    const out: GeospatialStatistics = {};
    const hasXY = this.xmin <= this.xmax && this.ymin <= this.ymax;
    const boundable = !this.geography || (!this.edges && this.xmin >= -180 && this.xmax <= 180 && this.ymin >= -90 && this.ymax <= 90);
    if (hasXY && boundable) {
      const bbox: BoundingBox = { xmin: this.xmin, xmax: this.xmax, ymin: this.ymin, ymax: this.ymax };
      if (this.zmin <= this.zmax) {
        bbox.zmin = this.zmin;
        bbox.zmax = this.zmax;
      }
      if (this.mmin <= this.mmax) {
        bbox.mmin = this.mmin;
        bbox.mmax = this.mmax;
      }
      out.bbox = bbox;
    }
    const types: number[] = [];
    for (let dim = 0; dim < 4; dim++) for (let base = 1; base <= 7; base++) if (this.types[dim * 8 + base]) types.push(dim * 1000 + base);
    out.geospatial_types = types;
    return out;
  }

  /**
   * Reads one geometry at `this.pos` (header and body), adding its coordinates.
   * @returns its `types` index (`dim * 8 + base`), or -1 when malformed.
   */
  private geometry(depth: number): number {
    if (depth > MAX_WKB_DEPTH || this.end - this.pos < 5) return -1;
    const v = this.view;
    const order = v.getUint8(this.pos);
    if (order > 1) return -1;
    const le = order === 1;
    const raw = v.getUint32(this.pos + 1, le);
    this.pos += 5;
    let base: number;
    let hasZ: boolean;
    let hasM: boolean;
    if (raw & (EWKB_Z | EWKB_M | EWKB_SRID)) {
      base = raw & 0x0fffffff;
      hasZ = (raw & EWKB_Z) !== 0;
      hasM = (raw & EWKB_M) !== 0;
      if (raw & EWKB_SRID) {
        if (this.end - this.pos < 4) return -1;
        this.pos += 4;
      }
    } else {
      const dim = Math.floor(raw / 1000);
      if (dim > 3) return -1;
      base = raw - dim * 1000;
      hasZ = (dim & 1) !== 0;
      hasM = (dim & 2) !== 0;
    }
    if (base < 1 || base > 7) return -1;
    const n = 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0);
    switch (base) {
      case 1: // Point
        if (!this.coords(1, n, hasZ, hasM, le)) return -1;
        break;
      case 2: // LineString
        if (!this.sequence(n, hasZ, hasM, le)) return -1;
        break;
      case 3: {
        // Polygon: rings of points
        if (this.end - this.pos < 4) return -1;
        const rings = v.getUint32(this.pos, le);
        this.pos += 4;
        if (rings * 4 > this.end - this.pos) return -1;
        for (let r = 0; r < rings; r++) if (!this.sequence(n, hasZ, hasM, le)) return -1;
        break;
      }
      default: {
        // MultiPoint, MultiLineString, MultiPolygon, GeometryCollection: complete WKB geometries
        if (this.end - this.pos < 4) return -1;
        const parts = v.getUint32(this.pos, le);
        this.pos += 4;
        if (parts * 5 > this.end - this.pos) return -1;
        for (let p = 0; p < parts; p++) if (this.geometry(depth + 1) < 0) return -1;
      }
    }
    return ((hasZ ? 1 : 0) + (hasM ? 2 : 0)) * 8 + base;
  }

  /** A point count then the points; a sequence of two or more points has edges. */
  private sequence(n: number, hasZ: boolean, hasM: boolean, le: boolean): boolean {
    if (this.end - this.pos < 4) return false;
    const count = this.view.getUint32(this.pos, le);
    this.pos += 4;
    if (count >= 2) this.edges = true;
    return this.coords(count, n, hasZ, hasM, le);
  }

  /** `count` coordinates of `n` doubles (x, y, then z and/or m). */
  private coords(count: number, n: number, hasZ: boolean, hasM: boolean, le: boolean): boolean {
    const bytes = count * n * 8;
    if (bytes > this.end - this.pos) return false;
    const v = this.view;
    let p = this.pos;
    for (let i = 0; i < count; i++, p += n * 8) {
      // NaN fails every comparison, so it is skipped per dimension
      const x = v.getFloat64(p, le);
      const y = v.getFloat64(p + 8, le);
      if (x < this.xmin) this.xmin = x;
      if (x > this.xmax) this.xmax = x;
      if (y < this.ymin) this.ymin = y;
      if (y > this.ymax) this.ymax = y;
      let q = p + 16;
      if (hasZ) {
        const z = v.getFloat64(q, le);
        q += 8;
        if (z < this.zmin) this.zmin = z;
        if (z > this.zmax) this.zmax = z;
      }
      if (hasM) {
        const m = v.getFloat64(q, le);
        if (m < this.mmin) this.mmin = m;
        if (m > this.mmax) this.mmax = m;
      }
    }
    this.pos += bytes;
    return true;
  }
}
