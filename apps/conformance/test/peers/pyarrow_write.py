"""Writes the pyarrow (Arrow C++) files of peers.test.ts: every Arrow type pyarrow maps to Parquet, with nulls,
edge values (extremes, NaN, +-inf, -0.0, '', empty and null lists), over codecs, page versions and encodings.

usage: pyarrow_write.py DIR
"""
import datetime
import os
import sys
import uuid
from decimal import Decimal

import pyarrow as pa
import pyarrow.parquet as pq

N = 400


def nulls(values):
    """Every 7th value (from row 3 on) becomes None."""
    return [None if i % 7 == 3 else v for i, v in enumerate(values)]


def edge(lo, hi, zero, gen):
    return [lo, hi, zero] + nulls([gen(i) for i in range(3, N)])[0:N - 3]


def table(n=N):
    inf = float('inf')
    nan = float('nan')
    cols = {
        'b': pa.array(nulls([i % 2 == 0 for i in range(N)]), pa.bool_()),
        'i8': pa.array(edge(-128, 127, 0, lambda i: i % 256 - 128), pa.int8()),
        'i16': pa.array(edge(-32768, 32767, 0, lambda i: i * 37 % 65536 - 32768), pa.int16()),
        'i32': pa.array(edge(-2 ** 31, 2 ** 31 - 1, 0, lambda i: (i * 2654435761) % 2 ** 32 - 2 ** 31), pa.int32()),
        'i64': pa.array(edge(-2 ** 63, 2 ** 63 - 1, 0, lambda i: (i * 0x9E3779B97F4A7C15) % 2 ** 64 - 2 ** 63), pa.int64()),
        'u8': pa.array(edge(0, 255, 0, lambda i: i % 256), pa.uint8()),
        'u16': pa.array(edge(0, 65535, 0, lambda i: i * 31 % 65536), pa.uint16()),
        'u32': pa.array(edge(0, 2 ** 32 - 1, 2 ** 31, lambda i: (i * 2654435761) % 2 ** 32), pa.uint32()),
        'u64': pa.array(edge(0, 2 ** 64 - 1, 2 ** 63, lambda i: (i * 0x9E3779B97F4A7C15) % 2 ** 64), pa.uint64()),
        'f16': pa.array(edge(-inf, inf, -0.0, lambda i: nan if i % 11 == 0 else (i % 100) / 8), pa.float16()),
        'f32': pa.array(edge(-inf, inf, -0.0, lambda i: nan if i % 11 == 0 else i / 7), pa.float32()),
        'f64': pa.array(edge(-inf, inf, -0.0, lambda i: nan if i % 11 == 0 else i / 3 - 100), pa.float64()),
        'd4': pa.array(edge(Decimal('-99.99'), Decimal('99.99'), Decimal('0.00'), lambda i: Decimal(i % 9999 - 5000).scaleb(-2)), pa.decimal128(4, 2)),
        'd18': pa.array(edge(Decimal('-999999999999999.999'), Decimal('999999999999999.999'), Decimal('0.000'),
                             lambda i: Decimal((i * 0x9E3779B97F4A7C15) % 10 ** 18 - 5 * 10 ** 17).scaleb(-3)), pa.decimal128(18, 3)),
        'd38': pa.array(edge(Decimal('-' + '9' * 28 + '.' + '9' * 10), Decimal('9' * 28 + '.' + '9' * 10), Decimal('0E-10'),
                             lambda i: Decimal((i * 0x9E3779B97F4A7C15) % 10 ** 38 - 5 * 10 ** 37).scaleb(-10)), pa.decimal128(38, 10)),
        'd76': pa.array(edge(Decimal('-' + '9' * 56 + '.' + '9' * 20), Decimal('9' * 56 + '.' + '9' * 20), Decimal('0E-20'),
                             lambda i: Decimal(i * 10 ** 30 + 7).scaleb(-20)), pa.decimal256(76, 20)),
        's': pa.array(edge('', '😀✓é', '', lambda i: f'row{i}' + ('é✓😀' if i % 5 == 0 else '')), pa.string()),
        'ls': pa.array(edge('', 'z' * 100, 'a', lambda i: 'x' * (i % 17)), pa.large_string()),
        'dict': pa.array(nulls([['red', 'green', 'blue'][i % 3] for i in range(N)]), pa.string()).dictionary_encode(),
        'bl': pa.array(edge(b'', b'\xff\x00\x01', b'\x00', lambda i: bytes([i % 256, (i * 7) % 256])), pa.binary()),
        'fb': pa.array(edge(b'\x00\x00\x00', b'\xff\xff\xff', b'abc', lambda i: bytes([i % 256, 1, 2])), pa.binary(3)),
        'dt': pa.array(edge(datetime.date(1, 1, 1), datetime.date(9999, 12, 31), datetime.date(1970, 1, 1),
                            lambda i: datetime.date(1900, 1, 1) + datetime.timedelta(days=i * 97)), pa.date32()),
        't_ms': pa.array(edge(0, 86399999, 1, lambda i: i * 123457 % 86400000), pa.time32('ms')),
        't_us': pa.array(edge(0, 86399999999, 1, lambda i: i * 123456789 % 86400000000), pa.time64('us')),
        't_ns': pa.array(edge(0, 86399999999999, 1, lambda i: i * 123456789123 % 86400000000000), pa.time64('ns')),
        'ts_s': pa.array(edge(-62135596800, 253402300799, -1, lambda i: i * 86401 - 10 ** 7), pa.timestamp('s')),
        'ts_ms': pa.array(edge(-62135596800000, 253402300799999, -1, lambda i: i * 86400001 - 10 ** 10), pa.timestamp('ms')),
        'ts_us': pa.array(edge(-62135596800000000, 253402300799999999, -1, lambda i: i * 86400000001 - 10 ** 13), pa.timestamp('us', tz='UTC')),
        'ts_ns': pa.array(edge(-2 ** 63 + 1, 2 ** 63 - 1, -1, lambda i: i * 86400000000001 - 10 ** 16), pa.timestamp('ns')),
        'ts_ns_tz': pa.array(edge(-10 ** 18, 10 ** 18, 0, lambda i: i * 999999999999), pa.timestamp('ns', tz='UTC')),
        'id': pa.ExtensionArray.from_storage(pa.uuid(), pa.array(edge(b'\x00' * 16, b'\xff' * 16, b'\x80' + b'\x00' * 15,
                                                                        lambda i: uuid.UUID(int=(i * 0x9E3779B97F4A7C15) % 2 ** 128).bytes), pa.binary(16))),
        'js': pa.ExtensionArray.from_storage(pa.json_(), pa.array(nulls([f'{{"k": {i}}}' for i in range(N)]), pa.string())),
        'list_i': pa.array(nulls([[i, None, i + 1][0:i % 4] for i in range(N)]), pa.list_(pa.int32())),
        'large_list_s': pa.array(nulls([['a' * (i % 3), None][0:i % 3] for i in range(N)]), pa.large_list(pa.string())),
        'nested': pa.array(nulls([[[i], [], None, [i, None]][0:i % 5] for i in range(N)]), pa.list_(pa.list_(pa.int64()))),
        # no null lists: pyarrow 25 cannot read back a fixed_size_list column with null lists that it wrote
        # ("Expected all lists to be of size=3 but index 4 had size=0")
        'fsl': pa.array([[i, None, -i] for i in range(N)], pa.list_(pa.int16(), 3)),
        'st': pa.array(nulls([{'x': i, 'y': None if i % 5 == 0 else f'y{i}', 'z': {'w': i % 3 == 0, 'l': [float(i)]}} for i in range(N)]),
                       pa.struct([('x', pa.int32()), ('y', pa.string()), ('z', pa.struct([('w', pa.bool_()), ('l', pa.list_(pa.float64()))]))])),
        'm': pa.array(nulls([[(f'k{i % 5}', i), ('other', None if i % 4 == 0 else i * 2)] if i % 6 else [] for i in range(N)]),
                      pa.map_(pa.string(), pa.int64())),
        'm_int': pa.array(nulls([[(i % 100 + 1000, f'v{i}'), (i % 100, None)] for i in range(N)]), pa.map_(pa.int32(), pa.string())),
        'list_struct': pa.array(nulls([[{'a': i, 'b': [str(i)]}] for i in range(N)]),
                                pa.list_(pa.struct([('a', pa.int64()), ('b', pa.list_(pa.string()))]))),
        'all_null': pa.array([None] * N, pa.int32()),
    }
    t = pa.table(cols)
    return t.slice(0, n)


def main():
    out = sys.argv[1]
    t = table()
    w = lambda name, tab=t, **kw: pq.write_table(tab, os.path.join(out, name), row_group_size=150, **kw)
    w('snappy-v1.parquet', compression='snappy', data_page_version='1.0')
    w('zstd-v2.parquet', compression='zstd', data_page_version='2.0')
    w('gzip-v2-small-pages.parquet', compression='gzip', data_page_version='2.0', data_page_size=512)
    w('brotli-v1.parquet', compression='brotli')
    w('lz4-v2-no-dictionary.parquet', compression='lz4', data_page_version='2.0', use_dictionary=False)
    plain = ['i32', 'i64', 'u32', 'u64', 'f16', 'f32', 'f64', 'd4', 'd18', 's', 'bl', 'fb', 'ts_ns', 't_us']
    w('delta-bss-v2.parquet', tab=t.select(plain), compression='snappy', data_page_version='2.0', use_dictionary=False,
      column_encoding={'i32': 'DELTA_BINARY_PACKED', 'i64': 'DELTA_BINARY_PACKED', 'u32': 'DELTA_BINARY_PACKED',
                       'u64': 'DELTA_BINARY_PACKED', 'ts_ns': 'DELTA_BINARY_PACKED', 't_us': 'DELTA_BINARY_PACKED',
                       'f16': 'BYTE_STREAM_SPLIT', 'f32': 'BYTE_STREAM_SPLIT', 'f64': 'BYTE_STREAM_SPLIT',
                       'd4': 'BYTE_STREAM_SPLIT', 'd18': 'BYTE_STREAM_SPLIT', 'fb': 'BYTE_STREAM_SPLIT',
                       's': 'DELTA_BYTE_ARRAY', 'bl': 'DELTA_LENGTH_BYTE_ARRAY'})
    w('int96.parquet', tab=t.select(['ts_s', 'ts_ms', 'ts_us', 'ts_ns_tz']), compression='none', use_deprecated_int96_timestamps=True)
    w('zero-rows.parquet', tab=table(0), compression='snappy')


if __name__ == '__main__':
    main()
