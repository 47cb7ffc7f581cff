/**
 * The page's content for one opened file: a summary, the legend, the two pictures, the hover tooltip, the schema
 * tree and the first rows. Everything read from the file is put into the DOM as text (never as HTML).
 * @module
 */
import type { SchemaNode } from '@parquetry/parquet-levels';
import { ConvertedTypeNames, FieldRepetitionTypeNames, Type, TypeNames, type LogicalType } from '@parquetry/thrift-compact';
import { chunkLines, formatBytes, pageLines, regionLines, rowGroupLines } from './describe.js';
import type { LoadedFile } from './load.js';
import { COLOURS, colourKey, drawChunkDetail, drawOverview, drawRowGroups } from './picture.js';

/** Rows shown in the table. */
export const FIRST_ROWS = 20;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls !== undefined) e.className = cls;
  return e;
}

function logicalName(lt: LogicalType | undefined): string | undefined {
  if (!lt) return undefined;
  const [name, v] = Object.entries(lt)[0] ?? [];
  if (name === undefined) return undefined;
  const args = v && typeof v === 'object' ? Object.entries(v as Record<string, unknown>).filter(([, x]) => typeof x !== 'object') : [];
  return args.length ? `${name}(${args.map(([k, x]) => `${k}=${String(x)}`).join(', ')})` : name;
}

/**
 * Builds the schema tree as nested lists: each node with its repetition, physical type and logical type; leaves
 * carry `data-kind="schema-leaf"` and `data-col` (their column index) and show their dotted path on hover.
 * @param node - the node to draw (the root: its children are drawn).
 * @returns the list element.
 */
export function schemaTree(node: SchemaNode): HTMLUListElement {
  const ul = h('ul', undefined, 'schema');
  for (const child of node.children) {
    const li = h('li');
    const e = child.element;
    const name = h('span', child.name, 'name');
    li.append(name);
    const rep = FieldRepetitionTypeNames[child.repetition] ?? String(child.repetition);
    const bits = [rep.toLowerCase()];
    if (e.type !== undefined) bits.push((TypeNames[e.type] ?? `type ${e.type}`) + (e.type_length !== undefined && e.type === Type.FIXED_LEN_BYTE_ARRAY ? `(${e.type_length})` : ''));
    const logical = logicalName(e.logicalType) ?? (e.converted_type !== undefined ? ConvertedTypeNames[e.converted_type] : undefined);
    if (logical) bits.push(logical);
    li.append(h('span', ` ${bits.join(' ')}`, 'type'));
    if (child.children.length > 0) li.append(schemaTree(child));
    else {
      li.dataset.kind = 'schema-leaf';
      li.dataset.col = String(child.columnIndex);
      li.title = child.path.join('.');
    }
    ul.append(li);
  }
  return ul;
}

/**
 * A cell's text: strings as they are, everything else as JSON (values come from the reader's `values: 'json'`).
 * @param v - the value.
 * @returns the text.
 */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * Builds the table of the first rows.
 * @param rows - rows from `readRows({ values: 'json' })`.
 * @param fields - the top-level field names, in schema order.
 * @returns the table element.
 */
export function rowsTable(rows: readonly Record<string, unknown>[], fields: readonly string[]): HTMLTableElement {
  const table = h('table', undefined, 'rows');
  const head = table.createTHead().insertRow();
  head.append(h('th', '#'));
  for (const f of fields) head.append(h('th', f));
  const body = table.createTBody();
  rows.forEach((r, i) => {
    const tr = body.insertRow();
    tr.append(h('th', String(i)));
    for (const f of fields) {
      const td = h('td', cellText(r[f]));
      tr.append(td);
    }
  });
  return table;
}

function legend(loaded: LoadedFile, pageEncoding: (g: number, c: number, p: number) => number | undefined): HTMLElement {
  // only the keys this file uses
  const used = new Set<string>();
  for (const s of loaded.layout.segments) used.add(colourKey(s, s.page !== undefined ? pageEncoding(s.rowGroup!, s.column!, s.page) : undefined));
  const box = h('div', undefined, 'legend');
  for (const [key, colour] of Object.entries(COLOURS)) {
    if (!used.has(key)) continue;
    const item = h('span', undefined, 'legend-item');
    const sw = h('span', undefined, 'swatch');
    sw.style.background = colour;
    item.append(sw, h('span', key));
    box.append(item);
  }
  return box;
}

/** The tooltip lines for the element under the pointer, or undefined. */
function hoverLines(loaded: LoadedFile, target: Element): string[] | undefined {
  const e = target.closest('[data-kind]');
  if (!(e instanceof Element)) return undefined;
  const d = (e as SVGElement | HTMLElement).dataset;
  const g = Number(d.rg);
  const c = Number(d.col);
  const chunk = () => loaded.layout.rowGroups[g]?.chunks.find((x) => x.column === c);
  switch (d.kind) {
    case 'detail-page':
    case 'page': {
      const ch = chunk();
      return ch ? pageLines(loaded, ch, Number(d.page)) : undefined;
    }
    case 'chunk-box':
    case 'chunk': {
      const ch = chunk();
      return ch ? chunkLines(loaded, ch) : undefined;
    }
    case 'overview-row-group':
      return rowGroupLines(loaded, g);
    case 'region': {
      const s = loaded.layout.segments[Number(d.seg)];
      return s ? regionLines(loaded, s) : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Renders an opened file into `root` (replacing its content): summary, legend, the overview and row-group pictures
 * with hover details, the schema tree, and the first rows (read asynchronously; `onRows` is called when they are in
 * the DOM or failed).
 * @param root - the container.
 * @param loaded - the file and its layout.
 * @param name - the file's name or URL, for the summary.
 * @param extraErrors - messages to show besides the layout's problems (codecs that failed to load).
 * @returns a promise settled once the rows table (or its error) is in the DOM.
 */
export async function renderFile(root: HTMLElement, loaded: LoadedFile, name: string, extraErrors: readonly string[] = []): Promise<void> {
  root.replaceChildren();
  const { file, layout, details } = loaded;
  const m = file.metadata;
  const encodingOf = (g: number, c: number, p: number) => layout.rowGroups[g]?.chunks.find((x) => x.column === c)?.pages?.pages[p]?.encoding;

  const summary = h('section', undefined, 'summary');
  summary.append(h('h2', name));
  const facts = h('p');
  facts.textContent = `${formatBytes(layout.fileSize)} · ${m.num_rows.toLocaleString('en-US')} rows · ${m.row_groups.length} row groups · ${file.schema.columns.length} columns · ${layout.rowGroups.reduce((a, g) => a + g.chunks.reduce((b, ch) => b + (ch.pages?.pages.length ?? 0), 0), 0).toLocaleString('en-US')} pages · created by ${m.created_by ?? 'unknown'}`;
  summary.append(facts);
  const notes = [...details.errors, ...layout.problems, ...extraErrors];
  if (notes.length > 0) {
    const ul = h('ul', undefined, 'problems');
    for (const n of notes) ul.append(h('li', n));
    summary.append(ul);
  }
  root.append(summary);

  const pictures = h('section', undefined, 'pictures');
  pictures.append(h('h3', 'Layout'), legend(loaded, encodingOf), drawOverview(layout));
  const groups = drawRowGroups(layout, encodingOf);
  const scroller = h('div', undefined, 'row-groups-box');
  scroller.append(groups);
  pictures.append(scroller);
  // clicking a lane draws its chunk across the whole width, where small pages can be told apart
  const detail = h('div', undefined, 'detail-box');
  detail.append(h('p', 'Click a column chunk to draw its pages across the whole width.', 'hint'));
  pictures.append(detail);
  groups.addEventListener('click', (ev) => {
    const lane = ev.target instanceof Element ? ev.target.closest('[data-kind="chunk"]') : null;
    if (!(lane instanceof SVGElement)) return;
    const g = Number(lane.dataset.rg);
    const c = Number(lane.dataset.col);
    const ch = layout.rowGroups[g]?.chunks.find((x) => x.column === c);
    if (!ch) return;
    detail.replaceChildren(h('h3', `Row group ${g} · column ${ch.path}: ${ch.pageSegments.length} pages in ${formatBytes(ch.end - ch.start)}`), drawChunkDetail(layout, ch, encodingOf));
  });
  root.append(pictures);

  const tooltip = h('div', undefined, 'tooltip');
  tooltip.id = 'tooltip';
  tooltip.hidden = true;
  root.append(tooltip);
  const over = (ev: MouseEvent) => {
    const lines = ev.target instanceof Element ? hoverLines(loaded, ev.target) : undefined;
    if (!lines) {
      tooltip.hidden = true;
      return;
    }
    tooltip.replaceChildren(h('strong', lines[0]), ...lines.slice(1).map((l) => h('div', l)));
    tooltip.hidden = false;
    const x = Math.min(ev.clientX + 14, window.innerWidth - tooltip.offsetWidth - 8);
    const y = ev.clientY + 14 + tooltip.offsetHeight > window.innerHeight ? ev.clientY - tooltip.offsetHeight - 10 : ev.clientY + 14;
    tooltip.style.left = `${Math.max(0, x)}px`;
    tooltip.style.top = `${Math.max(0, y)}px`;
  };
  pictures.addEventListener('mousemove', over);
  pictures.addEventListener('mouseleave', () => (tooltip.hidden = true));

  const side = h('section', undefined, 'schema-box');
  side.append(h('h3', 'Schema'), schemaTree(file.schema.root));
  root.append(side);

  const rowsBox = h('section', undefined, 'rows-box');
  rowsBox.append(h('h3', `First ${Math.min(FIRST_ROWS, m.num_rows)} rows`));
  root.append(rowsBox);
  try {
    const rows = await file.readRows({ rowEnd: FIRST_ROWS, values: 'json' });
    rowsBox.append(rowsTable(rows, file.schema.root.children.map((c) => c.name)));
  } catch (e) {
    rowsBox.append(h('p', `The rows could not be read: ${(e as Error).message}`, 'error'));
  }
}
