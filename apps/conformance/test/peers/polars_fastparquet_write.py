"""Writes the polars and fastparquet files of polars-fastparquet-written.test.ts: each library's own Parquet writer
(polars-parquet in Rust; fastparquet in Python/numba) over its options, with nulls and edge values.

usage: polars_fastparquet_write.py DIR   -> prints a JSON list of {"name", "writer", "options"} of the files written

polars 1.44 (DataFrame.write_parquet, use_pyarrow=False): every codec it writes (uncompressed, snappy, gzip, lz4,
zstd, brotli), statistics on and off, small data pages and row groups. Its writer has no page-version and no
dictionary switch: it writes data page V1, and dictionary-encodes columns of few distinct values (and Categorical
/ Enum) by itself, plain pages for the others; both kinds are in every file (the test checks the footers).
Columns: booleans, every integer width signed and unsigned, float32/64 with NaN/inf/-0.0, decimals (precision 9
and 38), strings (Unicode, empty), Categorical, binary, dates, times, timestamps in ms/us/ns (naive and UTC), lists
of integers and strings (empty and null lists, null elements), lists of lists, structs holding lists, lists of
structs, fixed-size arrays.

fastparquet 2026.9 (fastparquet.write): codecs (SNAPPY, GZIP, BROTLI, LZ4, LZ4_RAW, ZSTD, none), stats on/off,
times='int64' and times='int96', object encodings (utf8, bytes, json, bool, int, float, decimal), fixed_text,
categorical (dictionary) columns, several row groups. fastparquet writes no nested types but JSON.
"""
import datetime
import decimal
import json
import os
import sys

import numpy as np
import pandas as pd
import polars as pl
import fastparquet

N = 240


def nulls(values, every=7, at=3):
    return [None if i % every == at else v for i, v in enumerate(values)]


def edge(lo, hi, zero, gen):
    return [lo, hi, zero] + nulls([gen(i) for i in range(3, N)])


def polars_frame():
    inf = float('inf')
    nan = float('nan')
    D = decimal.Decimal
    return pl.DataFrame({
        'b': pl.Series(nulls([i % 3 == 0 for i in range(N)]), dtype=pl.Boolean),
        'i8': pl.Series(edge(-128, 127, 0, lambda i: i % 256 - 128), dtype=pl.Int8),
        'i16': pl.Series(edge(-32768, 32767, 0, lambda i: i * 37 % 65536 - 32768), dtype=pl.Int16),
        'i32': pl.Series(edge(-2 ** 31, 2 ** 31 - 1, 0, lambda i: (i * 2654435761) % 2 ** 32 - 2 ** 31), dtype=pl.Int32),
        'i64': pl.Series(edge(-2 ** 63, 2 ** 63 - 1, 0, lambda i: (i * 0x9E3779B97F4A7C15) % 2 ** 64 - 2 ** 63), dtype=pl.Int64),
        'u8': pl.Series(edge(0, 255, 0, lambda i: i % 256), dtype=pl.UInt8),
        'u16': pl.Series(edge(0, 65535, 0, lambda i: i * 31 % 65536), dtype=pl.UInt16),
        'u32': pl.Series(edge(0, 2 ** 32 - 1, 2 ** 31, lambda i: (i * 2654435761) % 2 ** 32), dtype=pl.UInt32),
        'u64': pl.Series(edge(0, 2 ** 64 - 1, 2 ** 63, lambda i: (i * 0x9E3779B97F4A7C15) % 2 ** 64), dtype=pl.UInt64),
        'f32': pl.Series(edge(-inf, inf, -0.0, lambda i: nan if i % 11 == 0 else i / 8), dtype=pl.Float32),
        'f64': pl.Series(edge(-inf, inf, -0.0, lambda i: nan if i % 11 == 0 else i / 3 - 100), dtype=pl.Float64),
        'd9': pl.Series(edge(D('-9999999.99'), D('9999999.99'), D('0.00'), lambda i: D(i * 12345 - 500000).scaleb(-2)), dtype=pl.Decimal(9, 2)),
        'd38': pl.Series(edge(D('-' + '9' * 28 + '.' + '9' * 10), D('9' * 28 + '.' + '9' * 10), D('0E-10'),
                              lambda i: D((i * 0x9E3779B97F4A7C15) % 10 ** 30 - 5 * 10 ** 29).scaleb(-10)), dtype=pl.Decimal(38, 10)),
        's': pl.Series(edge('', '😀✓é', 'a', lambda i: f'row{i}' + ('é✓😀' if i % 5 == 0 else '')), dtype=pl.String),
        'low': pl.Series(nulls([['red', 'green', 'blue'][i % 3] for i in range(N)]), dtype=pl.String),
        'cat': pl.Series(nulls([['x', 'y', 'zz'][i % 3] for i in range(N)]), dtype=pl.Categorical),
        'bin': pl.Series(edge(b'', b'\xff\x00\x01', b'\x00', lambda i: bytes([i % 256, (i * 7) % 256])), dtype=pl.Binary),
        'dt': pl.Series(edge(datetime.date(1, 1, 1), datetime.date(9999, 12, 31), datetime.date(1970, 1, 1),
                             lambda i: datetime.date(1900, 1, 1) + datetime.timedelta(days=i * 97)), dtype=pl.Date),
        'tm': pl.Series(edge(datetime.time(0, 0), datetime.time(23, 59, 59, 999999), datetime.time(12, 0),
                             lambda i: datetime.time(i % 24, i % 60, i % 60, i * 997 % 1000000)), dtype=pl.Time),
        'ts_ms': pl.Series(edge(-62135596800000, 253402300799999, -1, lambda i: i * 86400123 - 10 ** 11), dtype=pl.Int64).cast(pl.Datetime('ms')),
        'ts_us': pl.Series(edge(-62135596800000000, 253402300799999999, -1, lambda i: i * 86400123457 - 10 ** 14), dtype=pl.Int64).cast(pl.Datetime('us')),
        'ts_ns': pl.Series(edge(-2 ** 63 + 1, 2 ** 63 - 1, -1, lambda i: i * 86400123456789 - 10 ** 17), dtype=pl.Int64).cast(pl.Datetime('ns')),
        'ts_us_utc': pl.Series(edge(-62135596800000000, 253402300799999999, 0, lambda i: i * 3600000001), dtype=pl.Int64).cast(pl.Datetime('us', 'UTC')),
        'ts_ns_utc': pl.Series(edge(-2 ** 63 + 1, 2 ** 63 - 1, 0, lambda i: i * 3600000000001), dtype=pl.Int64).cast(pl.Datetime('ns', 'UTC')),
        'list_i': pl.Series(nulls([[i, None, -i][: i % 4] for i in range(N)]), dtype=pl.List(pl.Int64)),
        'list_s': pl.Series(nulls([[f'a{i}', None, ''][: i % 4] for i in range(N)]), dtype=pl.List(pl.String)),
        'list_list': pl.Series(nulls([[[i], [], None, [i, None]][: i % 5] for i in range(N)]), dtype=pl.List(pl.List(pl.Int32))),
        'st': pl.Series(nulls([{'x': i, 'y': None if i % 5 == 0 else f'y{i}', 'z': [i / 2, None][: i % 3]} for i in range(N)]),
                        dtype=pl.Struct({'x': pl.Int32, 'y': pl.String, 'z': pl.List(pl.Float64)})),
        'list_st': pl.Series(nulls([[{'k': i, 'v': f'v{i}'}, None, {'k': None, 'v': ''}][: i % 4] for i in range(N)]),
                             dtype=pl.List(pl.Struct({'k': pl.Int64, 'v': pl.String}))),
        'arr3': pl.Series(nulls([[i, None, -i] for i in range(N)]), dtype=pl.Array(pl.Int16, 3)),
    })


POLARS_FILES = [
    ('uncompressed', {'compression': 'uncompressed'}),
    ('snappy-pages', {'compression': 'snappy', 'data_page_size': 512, 'row_group_size': 100}),
    ('gzip-nostats', {'compression': 'gzip', 'statistics': False}),
    ('lz4', {'compression': 'lz4', 'row_group_size': 64}),
    ('zstd-fullstats', {'compression': 'zstd', 'compression_level': 9, 'statistics': 'full', 'data_page_size': 1024}),
    ('brotli', {'compression': 'brotli', 'row_group_size': 200}),
]


def fastparquet_frame(times_ns=True):
    D = decimal.Decimal
    ints = {
        'i8': ('Int8', -128, 127), 'i16': ('Int16', -32768, 32767), 'i32': ('Int32', -2 ** 31, 2 ** 31 - 1),
        'i64': ('Int64', -2 ** 63, 2 ** 63 - 1), 'u8': ('UInt8', 0, 255), 'u16': ('UInt16', 0, 65535),
        'u32': ('UInt32', 0, 2 ** 32 - 1), 'u64': ('UInt64', 0, 2 ** 64 - 1),
    }
    cols = {}
    cols['b'] = pd.array(nulls([i % 3 == 0 for i in range(N)]), dtype='boolean')
    cols['b_plain'] = np.array([i % 2 == 0 for i in range(N)])
    for name, (dt, lo, hi) in ints.items():
        cols[name] = pd.array(edge(lo, hi, 0, lambda i, lo=lo, hi=hi: lo + (i * 2654435761) % (hi - lo + 1)), dtype=dt)
    cols['i64_np'] = np.array([(i * 0x9E3779B97F4A7C15) % 2 ** 63 - 2 ** 62 for i in range(N)], dtype=np.int64)
    cols['f32'] = np.array(edge(-np.inf, np.inf, -0.0, lambda i: np.nan if i % 11 == 0 else i / 8), dtype=np.float32)
    cols['f64'] = np.array(edge(-np.inf, np.inf, -0.0, lambda i: np.nan if i % 11 == 0 else i / 3 - 100), dtype=np.float64)
    cols['s'] = np.array(edge('', '😀✓é', 'a', lambda i: f'row{i}' + ('é✓😀' if i % 5 == 0 else '')), dtype=object)
    cols['bytes'] = np.array(edge(b'', b'\xff\x00\x01', b'\x00', lambda i: bytes([i % 256, (i * 7) % 256])), dtype=object)
    cols['js'] = np.array(nulls([{'k': i, 'l': [i, 'x', None], 'f': i / 4} if i % 2 else [i, {'n': None}] for i in range(N)]), dtype=object)
    cols['dec'] = np.array(edge(D('-999999.999'), D('999999.999'), D('0.000'), lambda i: D(i * 123457 - 10 ** 7).scaleb(-3)), dtype=object)
    cols['obj_bool'] = np.array(nulls([i % 2 == 1 for i in range(N)]), dtype=object)
    cols['obj_int'] = np.array(edge(-2 ** 31, 2 ** 31 - 1, 0, lambda i: i * 1000003 - 2 ** 30), dtype=object)
    cols['obj_float'] = np.array(edge(-1e300, 1e300, 0.0, lambda i: i / 7), dtype=object)
    cols['cat'] = pd.Categorical(nulls([['red', 'green', 'blue'][i % 3] for i in range(N)]))
    cols['fixed'] = np.array([f'{i % 1000:03d}'.encode() for i in range(N)], dtype=object)
    ns = [(-2 ** 62 if i == 0 else 2 ** 62 if i == 1 else i * 86400123456789 - 10 ** 17) for i in range(N)]
    cols['ts_ns'] = pd.array(np.array(ns, dtype='datetime64[ns]'))
    cols['ts_ns'][5] = pd.NaT
    cols['ts_us'] = np.array([i * 86400123457 - 10 ** 14 for i in range(N)], dtype='datetime64[us]')
    cols['ts_ms'] = np.array([-62135596800000 if i == 0 else 253402300799999 if i == 1 else i * 86400123 for i in range(N)], dtype='datetime64[ms]')
    cols['ts_utc'] = pd.to_datetime(np.array([i * 3600000000001 for i in range(N)], dtype='datetime64[ns]')).tz_localize('UTC')
    cols['td'] = pd.to_timedelta(np.array([i * 1234567 for i in range(N)], dtype='timedelta64[us]'))
    return pd.DataFrame(cols)


FASTPARQUET_FILES = [
    ('none-stats', {'compression': None, 'stats': True}),
    ('snappy-rowgroups', {'compression': 'SNAPPY', 'row_group_offsets': 80}),
    ('gzip-nostats', {'compression': 'GZIP', 'stats': False}),
    ('brotli-int96', {'compression': 'BROTLI', 'times': 'int96'}),
    ('lz4', {'compression': 'LZ4'}),
    ('lz4raw', {'compression': 'LZ4_RAW'}),
    ('zstd-int96-nulls', {'compression': 'ZSTD', 'times': 'int96', 'has_nulls': True, 'row_group_offsets': 100}),
]
FP_OBJECT_ENCODING = {'s': 'utf8', 'bytes': 'bytes', 'js': 'json', 'dec': 'decimal', 'obj_bool': 'bool', 'obj_int': 'int', 'obj_float': 'float', 'fixed': 'bytes'}


def main():
    out = sys.argv[1]
    written = []
    df = polars_frame()
    for name, opts in POLARS_FILES:
        path = os.path.join(out, f'polars-{name}.parquet')
        df.write_parquet(path, use_pyarrow=False, **opts)
        written.append({'name': f'polars-{name}.parquet', 'writer': 'polars', 'version': pl.__version__, 'options': opts, 'rows': N})
    pdf = fastparquet_frame()
    for name, opts in FASTPARQUET_FILES:
        path = os.path.join(out, f'fastparquet-{name}.parquet')
        fastparquet.write(path, pdf, object_encoding=FP_OBJECT_ENCODING, fixed_text={'fixed': 3}, **opts)
        written.append({'name': f'fastparquet-{name}.parquet', 'writer': 'fastparquet', 'version': fastparquet.__version__, 'options': opts, 'rows': N})
    print(json.dumps(written))


if __name__ == '__main__':
    main()
