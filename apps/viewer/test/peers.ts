/**
 * Independent readings of a file's layout for the tests: hyparquet's footer and OffsetIndex decoders give chunk
 * ranges, index and bloom filter regions and page locations; Apache Thrift's TCompactProtocol walks page headers and
 * reads bloom filter headers. Nothing here uses the viewer's or the project's own decoders.
 */
import { parquetMetadata, readOffsetIndex } from 'hyparquet';
import thrift from 'thrift';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const { TCompactProtocol, TBufferedTransport, Thrift } = thrift as Any;

/** Reads the i32 fields `ids` of one Thrift struct at `pos` with Apache Thrift, and where the struct ends. */
export function thriftI32s(bytes: Uint8Array, pos: number, ids: number[]): { fields: Map<number, number>; end: number } {
  const tr = new TBufferedTransport();
  tr.inBuf = Buffer.from(bytes.buffer, bytes.byteOffset + pos, bytes.length - pos);
  tr.writeCursor = bytes.length - pos;
  tr.readCursor = 0;
  const p = new TCompactProtocol(tr);
  const fields = new Map<number, number>();
  p.readStructBegin();
  for (;;) {
    const { ftype, fid } = p.readFieldBegin();
    if (ftype === Thrift.Type.STOP) break;
    if (ids.includes(fid) && ftype === Thrift.Type.I32) fields.set(fid, p.readI32());
    else p.skip(ftype);
    p.readFieldEnd();
  }
  p.readStructEnd();
  return { fields, end: pos + tr.readCursor };
}

export interface PeerPage {
  offset: number;
  size: number;
  type: number | undefined;
}

/** Page headers walked by Apache Thrift from `start` to `end`: PageHeader field 1 type, field 3 compressed size. */
export function thriftPages(bytes: Uint8Array, start: number, end: number): PeerPage[] {
  const out: PeerPage[] = [];
  for (let pos = start; pos < end; ) {
    const h = thriftI32s(bytes, pos, [1, 3]);
    const size = h.end - pos + h.fields.get(3)!;
    out.push({ offset: pos, size, type: h.fields.get(1) });
    pos += size;
  }
  return out;
}

export interface PeerChunk {
  start: number;
  end: number;
  pages: PeerPage[];
  columnIndex: [number, number] | undefined;
  offsetIndex: [number, number] | undefined;
  bloom: [number, number] | undefined;
}

/** Every chunk of a file as hyparquet (and Apache Thrift, for headers) sees it. */
export function peerChunks(bytes: Uint8Array): PeerChunk[][] {
  const copy = bytes.slice().buffer;
  const meta = parquetMetadata(copy);
  const n = (v: bigint | number | undefined) => (v === undefined ? undefined : Number(v));
  return meta.row_groups.map((rg) =>
    rg.columns.map((cc) => {
      const md = cc.meta_data!;
      const dpo = Number(md.data_page_offset);
      const dict = n(md.dictionary_page_offset);
      const start = dict !== undefined && dict >= 4 && (dict < dpo || dpo < 4) ? dict : dpo;
      const end = start + Number(md.total_compressed_size);
      const oiAt = n(cc.offset_index_offset);
      const oiLen = n(cc.offset_index_length);
      let pages: PeerPage[];
      if (oiAt !== undefined && oiLen !== undefined) {
        const oi = readOffsetIndex({ view: new DataView(copy, oiAt, oiLen), offset: 0 });
        const locs = oi.page_locations.map((l) => ({ offset: Number(l.offset), size: l.compressed_page_size, type: undefined }));
        // the dictionary page, before the first data page, from its header
        pages = locs.length > 0 && locs[0]!.offset > start ? [...thriftPages(bytes, start, locs[0]!.offset), ...locs] : locs;
      } else {
        pages = thriftPages(bytes, start, end);
      }
      const ciAt = n(cc.column_index_offset);
      const ciLen = n(cc.column_index_length);
      const bloomAt = n(md.bloom_filter_offset);
      let bloom: [number, number] | undefined;
      if (bloomAt !== undefined) {
        const len = n(md.bloom_filter_length);
        if (len !== undefined) bloom = [bloomAt, bloomAt + len];
        else {
          const h = thriftI32s(bytes, bloomAt, [1]); // BloomFilterHeader field 1: numBytes
          bloom = [bloomAt, h.end + h.fields.get(1)!];
        }
      }
      return {
        start,
        end,
        pages,
        columnIndex: ciAt !== undefined && ciLen !== undefined ? [ciAt, ciAt + ciLen] : undefined,
        offsetIndex: oiAt !== undefined && oiLen !== undefined ? [oiAt, oiAt + oiLen] : undefined,
        bloom,
      };
    }),
  );
}

