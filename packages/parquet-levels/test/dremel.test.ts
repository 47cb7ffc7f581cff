// The Document example of Melnik et al., "Dremel: Interactive Analysis of Web-Scale Datasets"
// (VLDB 2010), Figures 2 and 3: records r1/r2 and the exact (value, r, d) column tables of the paper.
import { describe, expect, test } from 'vitest';
import { assembleColumnar, assembleRecords, buildSchemaTree, shredRecords } from '../src/index.js';
import { ConvertedType, Type, flatten, g, p } from './helpers.js';

const schema = buildSchemaTree(
  flatten('Document', [
    p('DocId', 'required', Type.INT64),
    g('Links', 'optional', [p('Backward', 'repeated', Type.INT64), p('Forward', 'repeated', Type.INT64)]),
    g('Name', 'repeated', [
      g('Language', 'repeated', [p('Code', 'required', Type.BYTE_ARRAY, ConvertedType.UTF8), p('Country', 'optional', Type.BYTE_ARRAY, ConvertedType.UTF8)]),
      p('Url', 'optional', Type.BYTE_ARRAY, ConvertedType.UTF8),
    ]),
  ]),
);

// Written the way the paper writes them: absent fields are simply not there.
const r1 = {
  DocId: 10,
  Links: { Forward: [20, 40, 60] },
  Name: [
    { Language: [{ Code: 'en-us', Country: 'us' }, { Code: 'en' }], Url: 'http://A' },
    { Url: 'http://B' },
    { Language: [{ Code: 'en-gb', Country: 'gb' }] },
  ],
};
const r2 = { DocId: 20, Links: { Backward: [10, 30], Forward: [80] }, Name: [{ Url: 'http://C' }] };

// Figure 3 of the paper, column by column: [value, r, d].
const paper: Record<string, [unknown, number, number][]> = {
  DocId: [[10, 0, 0], [20, 0, 0]],
  'Links.Backward': [[null, 0, 1], [10, 0, 2], [30, 1, 2]],
  'Links.Forward': [[20, 0, 2], [40, 1, 2], [60, 1, 2], [80, 0, 2]],
  'Name.Language.Code': [['en-us', 0, 2], ['en', 2, 2], [null, 1, 1], ['en-gb', 1, 2], [null, 0, 1]],
  'Name.Language.Country': [['us', 0, 3], [null, 2, 2], [null, 1, 1], ['gb', 1, 3], [null, 0, 1]],
  'Name.Url': [['http://A', 0, 2], ['http://B', 1, 2], [null, 1, 1], ['http://C', 0, 2]],
};

describe('Dremel paper Document example', () => {
  test('schema levels match the paper', () => {
    const got = Object.fromEntries(schema.columns.map((c) => [c.pathString, [c.maxRep, c.maxDef]]));
    expect(got).toEqual({
      DocId: [0, 0],
      'Links.Backward': [1, 2],
      'Links.Forward': [1, 2],
      'Name.Language.Code': [2, 2],
      'Name.Language.Country': [2, 3],
      'Name.Url': [1, 2],
    });
  });

  test('shredding r1, r2 gives the exact column tables of the paper', () => {
    const cols = shredRecords(schema, [r1, r2]);
    for (const c of schema.columns) {
      const s = cols[c.index]!;
      const rows: [unknown, number, number][] = [];
      let vi = 0;
      for (let i = 0; i < s.numLevels; i++) {
        const d = s.def[i]!;
        rows.push([d === c.maxDef ? s.values[vi++] : null, s.rep[i]!, d]);
      }
      expect(rows, c.pathString).toEqual(paper[c.pathString]);
      expect(vi).toBe(s.values.length);
    }
  });

  const assembled = [
    {
      DocId: 10,
      Links: { Backward: [], Forward: [20, 40, 60] },
      Name: [
        { Language: [{ Code: 'en-us', Country: 'us' }, { Code: 'en', Country: null }], Url: 'http://A' },
        { Language: [], Url: 'http://B' },
        { Language: [{ Code: 'en-gb', Country: 'gb' }], Url: null },
      ],
    },
    { DocId: 20, Links: { Backward: [10, 30], Forward: [80] }, Name: [{ Language: [], Url: 'http://C' }] },
  ];

  test('assembling the paper columns gives r1 and r2 back', () => {
    // Built from the paper's table, not from our shredder.
    const columns = schema.columns.map((c) => {
      const t = paper[c.pathString]!;
      return {
        def: Int32Array.from(t, (e) => e[2]),
        rep: Int32Array.from(t, (e) => e[1]),
        values: t.filter((e) => e[2] === c.maxDef).map((e) => e[0]),
      };
    });
    expect(assembleRecords(schema, columns)).toEqual(assembled);
  });

  test('projection: assembling only Name.Language.Country and DocId', () => {
    const cols = shredRecords(schema, [r1, r2]);
    const some = cols.map((c, i) => (i === 0 || i === 4 ? c : undefined));
    expect(assembleRecords(schema, some)).toEqual([
      { DocId: 10, Name: [{ Language: [{ Country: 'us' }, { Country: null }] }, { Language: [] }, { Language: [{ Country: 'gb' }] }] },
      { DocId: 20, Name: [{ Language: [] }] },
    ]);
  });

  test('columnar form: offsets and validity', () => {
    const v = assembleColumnar(schema, shredRecords(schema, [r1, r2]));
    expect(v.length).toBe(2);
    const [docId, links, name] = v.children;
    expect(docId!.kind === 'leaf' && Array.from(docId!.values)).toEqual([10, 20]);
    if (links!.kind !== 'struct' || name!.kind !== 'list') throw new Error('shape');
    expect(links!.validity).toEqual(new Uint8Array([1, 1]));
    const fwd = links!.children[1]!;
    if (fwd.kind !== 'list') throw new Error('shape');
    expect(Array.from(fwd.offsets)).toEqual([0, 3, 4]);
    expect(Array.from(name!.offsets)).toEqual([0, 3, 4]);
    const nameStruct = name!.element;
    if (nameStruct.kind !== 'struct') throw new Error('shape');
    const lang = nameStruct.children[0]!;
    const url = nameStruct.children[1]!;
    if (lang.kind !== 'list' || url.kind !== 'leaf') throw new Error('shape');
    expect(Array.from(lang.offsets)).toEqual([0, 2, 2, 3, 3]);
    expect(Array.from(url.validity!)).toEqual([1, 1, 0, 1]);
    expect(Array.from(url.values)).toEqual(['http://A', 'http://B', null, 'http://C']);
    const country = (lang.element as unknown as { children: { values: ArrayLike<unknown>; validity: Uint8Array }[] }).children[1]!;
    expect(Array.from(country.values)).toEqual(['us', null, 'gb']);
    expect(Array.from(country.validity)).toEqual([1, 0, 1]);
  });
});
