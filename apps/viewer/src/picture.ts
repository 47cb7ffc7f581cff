/**
 * The picture: two SVGs drawn from a {@link Layout}. The overview is the whole file on one axis, to scale by bytes
 * (magic, each row group, the indexes, bloom filters, footer). Below it each row group is a block with one lane per
 * column chunk; a lane places the chunk at its byte offset within the row group, all row groups on one scale, and
 * draws its pages inside it as segments sized by their compressed bytes, coloured by encoding. Elements carry
 * `data-kind` (`row-group`, `chunk`, `page`, `region`, `overview-row-group`) and `data-rg` / `data-col` / `data-page`
 * / `data-seg` attributes, which the hover text and the tests use.
 * @module
 */
import { Encoding } from '@parquetry/thrift-compact';
import { codecName } from './describe.js';
import { SegmentKind, type ChunkLayout, type Layout, type Segment } from './layout.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Drawing width in SVG units (the SVG scales to its box). */
const WIDTH = 1000;
const LABEL = 220;
const LANE = 14;
const LANE_GAP = 3;

/** Colours of data page encodings, dictionary pages and the other regions (one legend entry each). */
export const COLOURS: Readonly<Record<string, string>> = {
  'dictionary page': '#edc948',
  PLAIN: '#4e79a7',
  RLE_DICTIONARY: '#f28e2b',
  PLAIN_DICTIONARY: '#ffbe7d',
  RLE: '#59a14f',
  BIT_PACKED: '#8cd17d',
  DELTA_BINARY_PACKED: '#e15759',
  DELTA_LENGTH_BYTE_ARRAY: '#ff9d9a',
  DELTA_BYTE_ARRAY: '#b07aa1',
  BYTE_STREAM_SPLIT: '#76b7b2',
  ALP: '#9c755f',
  'unknown encoding': '#bab0ac',
  'column index': '#6b6ecf',
  'offset index': '#9c9ede',
  'bloom filter': '#d37295',
  'chunk metadata': '#c7c7c7',
  footer: '#555555',
  magic: '#222222',
  'outside pages': '#e8e8e8',
  gap: '#ffffff',
};

const ENCODING_KEYS: Record<number, string> = {
  [Encoding.PLAIN]: 'PLAIN',
  [Encoding.RLE_DICTIONARY]: 'RLE_DICTIONARY',
  [Encoding.PLAIN_DICTIONARY]: 'PLAIN_DICTIONARY',
  [Encoding.RLE]: 'RLE',
  [Encoding.BIT_PACKED]: 'BIT_PACKED',
  [Encoding.DELTA_BINARY_PACKED]: 'DELTA_BINARY_PACKED',
  [Encoding.DELTA_LENGTH_BYTE_ARRAY]: 'DELTA_LENGTH_BYTE_ARRAY',
  [Encoding.DELTA_BYTE_ARRAY]: 'DELTA_BYTE_ARRAY',
  [Encoding.BYTE_STREAM_SPLIT]: 'BYTE_STREAM_SPLIT',
  [Encoding.ALP]: 'ALP',
};

/**
 * The legend key of a segment: its encoding for pages, its region name otherwise.
 * @param seg - the segment.
 * @param encoding - the page's encoding, when it is a data page.
 * @returns a key of {@link COLOURS}.
 */
export function colourKey(seg: Segment, encoding: number | undefined): string {
  switch (seg.kind) {
    case SegmentKind.DICTIONARY_PAGE:
      return 'dictionary page';
    case SegmentKind.DATA_PAGE:
    case SegmentKind.DATA_PAGE_V2:
    case SegmentKind.OTHER_PAGE:
      return (encoding !== undefined ? ENCODING_KEYS[encoding] : undefined) ?? 'unknown encoding';
    case SegmentKind.COLUMN_INDEX:
      return 'column index';
    case SegmentKind.OFFSET_INDEX:
      return 'offset index';
    case SegmentKind.BLOOM_FILTER:
      return 'bloom filter';
    case SegmentKind.CHUNK_METADATA:
      return 'chunk metadata';
    case SegmentKind.FOOTER:
      return 'footer';
    case SegmentKind.MAGIC:
    case SegmentKind.TAIL:
      return 'magic';
    case SegmentKind.CHUNK_REST:
      return 'outside pages';
    default:
      return 'gap';
  }
}

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent?.appendChild(e);
  return e;
}

/** A rectangle at least a hair wide, so a tiny page stays visible and hoverable. */
function rect(parent: Element, x: number, y: number, w: number, h: number, fill: string, data: Record<string, string | number>): SVGRectElement {
  const attrs: Record<string, string | number> = { x: x.toFixed(3), y, width: Math.max(w, 0.6).toFixed(3), height: h, fill };
  for (const [k, v] of Object.entries(data)) attrs[`data-${k}`] = v;
  return el('rect', attrs, parent);
}

/**
 * Draws the overview: the whole file to scale, one rectangle per row group and one per region outside the row
 * groups.
 * @param layout - the layout.
 * @returns the SVG element.
 */
export function drawOverview(layout: Layout): SVGSVGElement {
  const h = 28;
  const svg = el('svg', { viewBox: `0 0 ${WIDTH} ${h + 16}`, class: 'overview', role: 'img', 'aria-label': 'the file to scale' });
  const scale = WIDTH / Math.max(1, layout.fileSize);
  const inGroup = (s: Segment) => s.rowGroup !== undefined && (s.kind === SegmentKind.DATA_PAGE || s.kind === SegmentKind.DATA_PAGE_V2 || s.kind === SegmentKind.DICTIONARY_PAGE || s.kind === SegmentKind.OTHER_PAGE || s.kind === SegmentKind.CHUNK_REST);
  layout.segments.forEach((s, i) => {
    if (inGroup(s)) return;
    rect(svg, s.start * scale, 0, (s.end - s.start) * scale, h, COLOURS[colourKey(s, undefined)]!, { kind: 'region', seg: i });
  });
  for (const rg of layout.rowGroups) {
    const r = rect(svg, rg.start * scale, 0, (rg.end - rg.start) * scale, h, '#4e79a7', { kind: 'overview-row-group', rg: rg.index });
    r.setAttribute('class', 'overview-rg');
  }
  const t = el('text', { x: 0, y: h + 12, class: 'axis' }, svg);
  t.textContent = '0';
  const t2 = el('text', { x: WIDTH, y: h + 12, class: 'axis', 'text-anchor': 'end' }, svg);
  t2.textContent = `${layout.fileSize.toLocaleString('en-US')} bytes`;
  return svg;
}

/**
 * Draws the row groups: one block per row group, one lane per column chunk, the pages inside the lanes.
 * @param layout - the layout.
 * @param pageEncoding - a data page's encoding, by row group, column and page position (undefined: unknown).
 * @returns the SVG element.
 */
export function drawRowGroups(layout: Layout, pageEncoding: (g: number, c: number, page: number) => number | undefined): SVGSVGElement {
  let widest = 1;
  for (const g of layout.rowGroups) widest = Math.max(widest, g.end - g.start);
  const scale = (WIDTH - LABEL) / widest;
  let y = 0;
  const svg = el('svg', { class: 'row-groups', role: 'img', 'aria-label': 'row groups, column chunks and pages' });
  for (const rg of layout.rowGroups) {
    const group = el('g', { 'data-kind': 'row-group', 'data-rg': rg.index }, svg);
    const title = el('text', { x: 0, y: y + 12, class: 'rg-title' }, group);
    title.textContent = `Row group ${rg.index} · ${rg.numRows.toLocaleString('en-US')} rows · ${(rg.end - rg.start).toLocaleString('en-US')} bytes`;
    y += 18;
    for (const ch of rg.chunks) {
      const lane = el('g', { 'data-kind': 'chunk', 'data-rg': rg.index, 'data-col': ch.column }, group);
      // the label belongs to the lane: hovering it shows the chunk
      const label = el('text', { x: 0, y: y + LANE - 3, class: 'lane-label' }, lane);
      label.textContent = `${ch.path} · ${codecName(ch.meta.codec)}`;
      const x0 = LABEL + (ch.start - rg.start) * scale;
      rect(lane, x0, y, (ch.end - ch.start) * scale, LANE, COLOURS['outside pages']!, { kind: 'chunk-box', rg: rg.index, col: ch.column }).setAttribute('class', 'chunk-box');
      for (const si of ch.pageSegments) {
        const s = layout.segments[si]!;
        const fill = COLOURS[colourKey(s, pageEncoding(rg.index, ch.column, s.page!))]!;
        rect(lane, LABEL + (s.start - rg.start) * scale, y + 1, (s.end - s.start) * scale, LANE - 2, fill, { kind: 'page', rg: rg.index, col: ch.column, page: s.page!, seg: si }).setAttribute('class', 'page');
      }
      y += LANE + LANE_GAP;
    }
    y += 8;
  }
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${Math.max(y, 1)}`);
  svg.style.setProperty('--rows-height', `${y}`);
  return svg;
}

/**
 * Draws one column chunk across the whole width (a zoom on its lane): its pages to the chunk's own scale, as
 * `data-kind="detail-page"` elements with the same data attributes as the lane's pages.
 * @param layout - the layout.
 * @param chunk - the chunk.
 * @param pageEncoding - a data page's encoding by row group, column and page position.
 * @returns the SVG element.
 */
export function drawChunkDetail(layout: Layout, chunk: ChunkLayout, pageEncoding: (g: number, c: number, page: number) => number | undefined): SVGSVGElement {
  const h = 30;
  const svg = el('svg', { viewBox: `0 0 ${WIDTH} ${h + 14}`, class: 'detail', role: 'img', 'aria-label': `pages of ${chunk.path}` });
  const scale = WIDTH / Math.max(1, chunk.end - chunk.start);
  rect(svg, 0, 0, WIDTH, h, COLOURS['outside pages']!, { kind: 'chunk-box', rg: chunk.rowGroup, col: chunk.column }).setAttribute('class', 'chunk-box');
  for (const si of chunk.pageSegments) {
    const s = layout.segments[si]!;
    const fill = COLOURS[colourKey(s, pageEncoding(chunk.rowGroup, chunk.column, s.page!))]!;
    rect(svg, (s.start - chunk.start) * scale, 1, (s.end - s.start) * scale, h - 2, fill, { kind: 'detail-page', rg: chunk.rowGroup, col: chunk.column, page: s.page!, seg: si }).setAttribute('class', 'page');
  }
  const t = el('text', { x: 0, y: h + 11, class: 'axis' }, svg);
  t.textContent = `byte ${chunk.start.toLocaleString('en-US')}`;
  const t2 = el('text', { x: WIDTH, y: h + 11, class: 'axis', 'text-anchor': 'end' }, svg);
  t2.textContent = `byte ${chunk.end.toLocaleString('en-US')}`;
  return svg;
}
