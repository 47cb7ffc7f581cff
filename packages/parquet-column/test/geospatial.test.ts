/**
 * GeospatialStatistics from hand-built WKB (written here byte by byte from the OGC layout: byte order, uint32 type,
 * counts, doubles), in both byte orders, ISO and EWKB dimension flags, with bounding boxes worked out by hand; and a
 * property over random geometries whose box is the plain min/max of their coordinates.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import { FieldRepetitionType, Type, type LogicalType } from '@parquetry/thrift-compact';
import { GeospatialStatisticsBuilder } from '../src/geospatial.js';
import { typedError } from './helpers.js';

function geoColumn(logicalType: LogicalType): ColumnDescriptor {
  return buildSchemaTree([
    { name: 'root', num_children: 1 },
    { name: 'g', type: Type.BYTE_ARRAY, repetition_type: FieldRepetitionType.OPTIONAL, logicalType },
  ]).columns[0]!;
}
const geometry = geoColumn({ GEOMETRY: {} });
const geography = geoColumn({ GEOGRAPHY: {} });

/** A WKB writer: byte order, then fields appended in that order. */
class Wkb {
  private bytes: number[] = [];
  constructor(private readonly le: boolean) {}
  u8(v: number): this {
    this.bytes.push(v);
    return this;
  }
  u32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, this.le);
    this.bytes.push(...b);
    return this;
  }
  f64(...vs: number[]): this {
    for (const v of vs) {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setFloat64(0, v, this.le);
      this.bytes.push(...b);
    }
    return this;
  }
  /** Header: byte-order byte and type. */
  head(type: number): this {
    return this.u8(this.le ? 1 : 0).u32(type);
  }
  raw(b: Uint8Array): this {
    this.bytes.push(...b);
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}
const LE = true;
const BE = false;

function values(list: Uint8Array[]): { offsets: Int32Array; data: Uint8Array } {
  const offsets = new Int32Array(list.length + 1);
  const data = new Uint8Array(list.reduce((a, v) => a + v.length, 0) + 1);
  let at = 1; // offsets need not start at 0
  offsets[0] = at;
  list.forEach((v, i) => {
    data.set(v, at);
    at += v.length;
    offsets[i + 1] = at;
  });
  return { offsets, data };
}
function stats(column: ColumnDescriptor, list: Uint8Array[]) {
  const b = new GeospatialStatisticsBuilder(column);
  b.update(values(list), 0, list.length);
  return b.toThrift();
}

const pointXY = new Wkb(LE).head(1).f64(1, 2).done();
const pointZ = new Wkb(BE).head(1001).f64(3, -4, 10).done();
const lineM = new Wkb(LE).head(2002).u32(2).f64(0, 0, 5, 10, -3, -1).done();
const polygonZM = new Wkb(BE).head(3003).u32(1).u32(4).f64(0, 0, 1, 100, 4, 0, 2, 200, 4, 4, 3, 300, 0, 0, 1, 100).done();

describe('GeospatialStatisticsBuilder (GEOMETRY)', () => {
  test('XY point, little endian', () => {
    expect(stats(geometry, [pointXY])).toEqual({ bbox: { xmin: 1, xmax: 1, ymin: 2, ymax: 2 }, geospatial_types: [1] });
  });
  test('XYZ point big endian, XYM linestring, XYZM polygon: every axis, sorted type codes', () => {
    expect(stats(geometry, [pointZ, lineM])).toEqual({ bbox: { xmin: 0, xmax: 10, ymin: -4, ymax: 0, zmin: 10, zmax: 10, mmin: -1, mmax: 5 }, geospatial_types: [1001, 2002] });
    expect(stats(geometry, [polygonZM, pointXY])).toEqual({ bbox: { xmin: 0, xmax: 4, ymin: 0, ymax: 4, zmin: 1, zmax: 3, mmin: 100, mmax: 300 }, geospatial_types: [1, 3003] });
  });
  test('EWKB flags (Z, M, SRID) map to ISO codes', () => {
    const ewkbZ = new Wkb(LE).head(0x80000001 | 0x20000000).u32(4326).f64(-7, 8, 9).done();
    const ewkbM = new Wkb(BE).head(0x40000002).u32(1).f64(5, 6, 42).done();
    const ewkbZM = new Wkb(LE).head(0xc0000001).f64(1, 1, 1, 1).done();
    expect(stats(geometry, [ewkbZ, ewkbM, ewkbZM])).toEqual({ bbox: { xmin: -7, xmax: 5, ymin: 1, ymax: 8, zmin: 1, zmax: 9, mmin: 1, mmax: 42 }, geospatial_types: [1001, 2002, 3001] });
  });
  test('multi geometries and collections: members in their own byte order count for the box, the top-level type is recorded', () => {
    const multiPoint = new Wkb(LE).head(4).u32(2).raw(new Wkb(BE).head(1).f64(-1, -2).done()).raw(new Wkb(LE).head(1).f64(5, 6).done()).done();
    const collection = new Wkb(BE).head(7).u32(2).raw(pointXY).raw(new Wkb(LE).head(2).u32(2).f64(20, 30, 21, -30).done()).done();
    const multiPolygon = new Wkb(LE).head(6).u32(1).raw(new Wkb(LE).head(3).u32(2).u32(3).f64(0, 0, 1, 0, 0, 1).u32(0).done()).done();
    expect(stats(geometry, [multiPoint, collection, multiPolygon])).toEqual({ bbox: { xmin: -1, xmax: 21, ymin: -30, ymax: 30 }, geospatial_types: [4, 6, 7] });
  });
  test('NaN coordinates are skipped per axis; a box needs both x and y', () => {
    const empty = new Wkb(LE).head(1).f64(NaN, NaN).done(); // POINT EMPTY
    expect(stats(geometry, [empty])).toEqual({ geospatial_types: [1] });
    const onlyX = new Wkb(LE).head(1).f64(1, NaN).done();
    expect(stats(geometry, [onlyX])).toEqual({ geospatial_types: [1] });
    const zNaN = new Wkb(LE).head(1001).f64(1, 2, NaN).done();
    expect(stats(geometry, [onlyX, zNaN, empty])).toEqual({ bbox: { xmin: 1, xmax: 1, ymin: 2, ymax: 2 }, geospatial_types: [1, 1001] });
    const emptyLine = new Wkb(BE).head(2).u32(0).done();
    expect(stats(geometry, [emptyLine])).toEqual({ geospatial_types: [2] });
  });
  test('pages merge; an all-null chunk has no statistics', () => {
    const chunk = new GeospatialStatisticsBuilder(geometry);
    const page = new GeospatialStatisticsBuilder(geometry);
    for (const list of [[pointXY], [], [pointZ, lineM]]) {
      page.reset();
      page.update(values(list), 0, list.length);
      chunk.merge(page);
    }
    expect(chunk.toThrift()).toEqual(stats(geometry, [pointXY, pointZ, lineM]));
    expect(new GeospatialStatisticsBuilder(geometry).toThrift()).toBeUndefined();
  });
  test('malformed WKB: no statistics for the chunk, nothing thrown', () => {
    const bad = [
      pointXY.subarray(0, 20), // truncated
      Uint8Array.of(2, ...pointXY.subarray(1)), // byte order 2
      new Wkb(LE).head(8).u32(0).done(), // CircularString: not read
      new Wkb(LE).head(4001).f64(1, 2).done(), // dimension code 4
      Uint8Array.of(...pointXY, 0), // trailing byte
      new Wkb(LE).head(2).u32(0x7fffffff).f64(1, 2).done(), // count past the end
      new Wkb(LE).head(3).u32(0x40000000).done(),
      new Uint8Array(0),
    ];
    // nesting deeper than MAX_WKB_DEPTH
    let deep = pointXY;
    for (let i = 0; i < 70; i++) deep = new Wkb(LE).head(7).u32(1).raw(deep).done();
    bad.push(deep);
    for (const b of bad) {
      expect(stats(geometry, [pointXY, b])).toBeUndefined();
      const chunk = new GeospatialStatisticsBuilder(geometry);
      const page = new GeospatialStatisticsBuilder(geometry);
      page.update(values([b]), 0, 1);
      chunk.merge(page);
      page.reset();
      page.update(values([pointXY]), 0, 1);
      expect(page.toThrift()).toBeDefined();
      chunk.merge(page);
      expect(chunk.toThrift()).toBeUndefined();
    }
  });
  test('property: random geometries in random byte orders give the min/max of their coordinates', () => {
    const coord = fc.double({ noNaN: true, min: -1e9, max: 1e9 });
    const dims = fc.constantFrom(0, 1, 2, 3);
    const geom = fc.tuple(dims, fc.constantFrom(1, 2, 3, 4), fc.array(fc.tuple(coord, coord, coord, coord), { minLength: 1, maxLength: 5 }), fc.boolean(), fc.boolean());
    fc.assert(
      fc.property(fc.array(geom, { minLength: 1, maxLength: 6 }), (geoms) => {
        const list: Uint8Array[] = [];
        const seen: number[][] = [[], [], [], []];
        const types = new Set<number>();
        for (const [dim, base, pts, le, ewkb] of geoms) {
          const hasZ = (dim & 1) !== 0;
          const hasM = (dim & 2) !== 0;
          const type = ewkb ? (base | (hasZ ? 0x80000000 : 0) | (hasM ? 0x40000000 : 0)) >>> 0 : base + dim * 1000;
          const w = new Wkb(le).head(type);
          const put = (wk: Wkb, p: [number, number, number, number]) => {
            wk.f64(p[0], p[1]);
            seen[0]!.push(p[0]);
            seen[1]!.push(p[1]);
            if (hasZ) wk.f64(p[2]), seen[2]!.push(p[2]);
            if (hasM) wk.f64(p[3]), seen[3]!.push(p[3]);
          };
          if (base === 1) put(w, pts[0]!);
          else if (base === 2) {
            w.u32(pts.length);
            pts.forEach((p) => put(w, p));
          } else if (base === 3) {
            w.u32(1).u32(pts.length);
            pts.forEach((p) => put(w, p));
          } else {
            w.u32(pts.length);
            for (const p of pts) {
              const member = new Wkb(!le).head(type - 3); // a Point of the same dimensions (base 4 → 1, flags kept)
              put(member, p);
              w.raw(member.done());
            }
          }
          list.push(w.done());
          types.add(base + dim * 1000);
        }
        const got = stats(geometry, list)!;
        const mm = (a: number[]) => [Math.min(...a), Math.max(...a)];
        expect([got.bbox!.xmin, got.bbox!.xmax]).toEqual(mm(seen[0]!));
        expect([got.bbox!.ymin, got.bbox!.ymax]).toEqual(mm(seen[1]!));
        expect(got.bbox!.zmin === undefined ? undefined : [got.bbox!.zmin, got.bbox!.zmax]).toEqual(seen[2]!.length ? mm(seen[2]!) : undefined);
        expect(got.bbox!.mmin === undefined ? undefined : [got.bbox!.mmin, got.bbox!.mmax]).toEqual(seen[3]!.length ? mm(seen[3]!) : undefined);
        expect(got.geospatial_types).toEqual([...types].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });
});

describe('GeospatialStatisticsBuilder (GEOGRAPHY)', () => {
  test('points only: the vertex box bounds the values', () => {
    const multi = new Wkb(LE).head(4).u32(2).raw(new Wkb(LE).head(1).f64(170, -10).done()).raw(new Wkb(BE).head(1).f64(-170, 80).done()).done();
    expect(stats(geography, [multi])).toEqual({ bbox: { xmin: -170, xmax: 170, ymin: -10, ymax: 80 }, geospatial_types: [4] });
  });
  test('an edge (geodesic, not straight) or a vertex outside the canonical ranges: types only', () => {
    // a geodesic from (0, 60) to (180, 60) runs over the pole, far above the vertices' latitude
    const line = new Wkb(LE).head(2).u32(2).f64(0, 60, 180, 60).done();
    expect(stats(geography, [pointXY, line])).toEqual({ geospatial_types: [1, 2] });
    expect(stats(geography, [new Wkb(LE).head(1).f64(200, 0).done()])).toEqual({ geospatial_types: [1] });
    // a one-point line has no edge
    expect(stats(geography, [new Wkb(LE).head(2).u32(1).f64(5, 6).done()])).toEqual({ bbox: { xmin: 5, xmax: 5, ymin: 6, ymax: 6 }, geospatial_types: [2] });
  });
});

describe('GeospatialStatisticsBuilder: misuse', () => {
  test('non-geospatial columns, bad ranges and offsets, GEOMETRY merged with GEOGRAPHY', async () => {
    const plain = buildSchemaTree([{ name: 'root', num_children: 1 }, { name: 'b', type: Type.BYTE_ARRAY }]).columns[0]!;
    expect((await typedError(() => new GeospatialStatisticsBuilder(plain))).code).toBe('INVALID_ARGUMENT');
    const b = new GeospatialStatisticsBuilder(geometry);
    expect((await typedError(() => b.update(values([pointXY]), 0, 2))).code).toBe('OUT_OF_RANGE');
    expect((await typedError(() => b.update({ offsets: Int32Array.of(0, 99), data: new Uint8Array(3) }, 0, 1))).code).toBe('INVALID_ARGUMENT');
    expect((await typedError(() => b.update({ offsets: Int32Array.of(0, 3, 1), data: new Uint8Array(3) }, 0, 2))).message).toMatch(/offsets decrease at value 1/);
    expect((await typedError(() => b.merge(new GeospatialStatisticsBuilder(geography)))).code).toBe('INVALID_ARGUMENT');
    expect((await typedError(() => b.update({ offsets: [0, 1], data: new Uint8Array(1) } as never, 0, 1))).code).toBe('INVALID_ARGUMENT');
  });
});
