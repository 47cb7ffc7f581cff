// A column key whose path names no leaf column is refused before anything is written: the column it meant to protect
// would otherwise go out in plaintext without a word (a misspelt 'snn' for 'ssn', or a group path). The check on the
// bytes is independent of our reader: the secret must not appear anywhere in the file.
import { describe, expect, test } from 'vitest';
import { rejection } from './rejection.js';
import { createWriter, field, memorySink, writeParquet, type WriterOptions } from '../src/index.js';

const footerKey = new Uint8Array(16).fill(1);
const key = new Uint8Array(16).fill(2);
const schema = { id: field.int32({ required: true }), ssn: field.string(), person: field.struct({ name: field.string(), phone: field.string() }) };
const rows = [{ id: 1, ssn: 'SECRET-SSN-123', person: { name: 'SECRET-NAME-456', phone: 'SECRET-PHONE-789' } }];
const has = (bytes: Uint8Array, text: string) => Buffer.from(bytes).includes(Buffer.from(text));

const errorOf = (f: () => Promise<unknown>) => rejection(f());

const encrypted = (columnKeys: Record<string, { key: Uint8Array }>, plaintextFooter = false): WriterOptions => ({ schema, encryption: { footerKey, columnKeys, plaintextFooter }, compression: 'UNCOMPRESSED' });

describe('encryption columnKeys must name leaf columns', () => {
  test('the right leaf paths encrypt those columns: their values are nowhere in the bytes', async () => {
    for (const plaintextFooter of [false, true]) {
      const bytes = await writeParquet(rows, encrypted({ ssn: { key }, 'person.name': { key }, 'person.phone': { key } }, plaintextFooter));
      for (const secret of ['SECRET-SSN-123', 'SECRET-NAME-456', 'SECRET-PHONE-789']) expect(has(bytes, secret)).toBe(false);
    }
  });

  test('a misspelt path is UNKNOWN_COLUMN naming the nearest leaf, before a byte is written', async () => {
    for (const plaintextFooter of [false, true]) {
      const e = await errorOf(() => writeParquet(rows, encrypted({ snn: { key } }, plaintextFooter)));
      expect(e.code).toBe('UNKNOWN_COLUMN');
      expect(e.message).toBe("parquet-writer: encryption columnKeys 'snn' is not a leaf column of the schema, so that column would be written unencrypted; columns are named by their dotted leaf path (nearest: 'ssn')");
    }
    const sink = memorySink();
    expect(() => createWriter(sink, encrypted({ snn: { key } }))).toThrow(/columnKeys 'snn'/);
    expect(sink.take().length).toBe(0);
  });

  test('a group path names its leaves', async () => {
    const e = await errorOf(() => writeParquet(rows, encrypted({ person: { key } })));
    expect(e.code).toBe('UNKNOWN_COLUMN');
    expect(e.message).toMatch(/columnKeys 'person' is not a leaf column .* it is a group: give a key for each of its leaf columns \(person\.name, person\.phone\)$/);
  });

  test('with the schema inferred, the check runs at the first write', async () => {
    const w = createWriter(memorySink(), { encryption: { footerKey, columnKeys: { sn: { key } } } });
    expect((await errorOf(() => w.write([{ ssn: 'SECRET' }]))).code).toBe('UNKNOWN_COLUMN');
  });
});
