"""pyarrow (Arrow C++) as the peer of @parquetry/arrow's tests.

  write-all DIR       a table with every Arrow type that maps to Parquet: DIR/all.parquet (pyarrow's defaults,
                      ARROW:schema stored), DIR/all.noschema.parquet (store_schema=False); DIR/source.arrows (the
                      table itself as an IPC stream); DIR/all.arrows, DIR/all.noschema.arrows, DIR/all.dict.arrows
                      (pq.read_table of the files, the last with read_dictionary on two columns).
  read FILE OUT       pq.read_table(FILE) as an IPC stream in OUT; prints {"ok": true} or {"error": "..."}.
  read-many DIR FILE… pq.read_table of each FILE into DIR/<index>.arrows; prints one JSON result per file.
  compare-ipc FILE IPC [COL…]
                      an Arrow consumer's check of our table: the IPC stream IPC (our table, tableToIPC) opened with
                      pa.ipc.open_stream against pq.read_table(FILE) (read_dictionary=COL… when given); prints
                      {"rows", "columns", "schema": [differences], "values": [differences], "map_entries_names":
                      [fields equal but for a map's entries field name]}.
  write-dataset DIR   a hive-partitioned dataset (pq.write_to_dataset, partitions year and region, a null region) in
                      DIR/ds, and pyarrow.dataset's read of it (partitioning='hive', to_table()) as DIR/ds.arrows.
  compare-dataset DIR IPC
                      our table of DIR/ds (the IPC stream IPC) against pyarrow.dataset's, both sorted by id, pyarrow's
                      int32 partition column cast to our int64 (DuckDB's type); prints {"rows", "schema": [differences],
                      "values": [differences]}.
  compare-dataset-dirs A B
                      pyarrow.dataset's reads (partitioning='hive') of the datasets in A and B, sorted by id: prints
                      {"rows", "schema": [differences], "values": [differences]}.
  unify-files OUT FILE…
                      files of one dataset storing different Arrow schemas: pa.unify_schemas of pq.read_schema of each,
                      pyarrow.dataset's read of the files with that schema as an IPC stream in OUT; prints {"unified":
                      [fields], "default": [the fields of pyarrow.dataset's own schema, the first file's]}.
"""
import datetime
import decimal
import json
import random
import sys
import uuid

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads
import pyarrow.parquet as pq

N = 2500


def sometimes_null(rng, values, p=0.15):
    return [None if rng.random() < p else v for v in values]


def build_table():
    rng = random.Random(20240601)
    n = N
    ints = lambda lo, hi: [rng.randint(lo, hi) for _ in range(n)]
    words = ['', 'a', 'héllo', 'naïve ☃', 'x' * 40, 'emoji 😀', 'tab\tnew\nline']
    text = lambda: [rng.choice(words) + str(rng.randint(0, 50)) for _ in range(n)]
    blobs = lambda: [bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 20))) for _ in range(n)]

    def dec(p, s):
        return [decimal.Decimal(rng.randint(-(10 ** p) + 1, 10 ** p - 1)).scaleb(-s) for _ in range(n)]

    floats = [rng.choice([0.0, -0.0, 1.5, -2.25, float('inf'), float('-inf'), float('nan'), rng.uniform(-1e6, 1e6)]) for _ in range(n)]
    halfs = [rng.choice([0.0, -0.0, 1.5, -2.0, 65504.0, 6.103515625e-05, 5.960464477539063e-08, float('inf'), float('nan')]) for _ in range(n)]
    dates = [datetime.date(1970, 1, 1) + datetime.timedelta(days=rng.randint(-40000, 40000)) for _ in range(n)]
    tags = ['red', 'green', 'blue', 'cyan', 'magenta']

    cols = {
        'bool': pa.array(sometimes_null(rng, [rng.random() < 0.5 for _ in range(n)]), pa.bool_()),
        'int8': pa.array(sometimes_null(rng, ints(-128, 127)), pa.int8()),
        'int16': pa.array(sometimes_null(rng, ints(-32768, 32767)), pa.int16()),
        'int32': pa.array(sometimes_null(rng, ints(-2 ** 31, 2 ** 31 - 1)), pa.int32()),
        'int64': pa.array(sometimes_null(rng, ints(-2 ** 63, 2 ** 63 - 1)), pa.int64()),
        'uint8': pa.array(sometimes_null(rng, ints(0, 255)), pa.uint8()),
        'uint16': pa.array(sometimes_null(rng, ints(0, 65535)), pa.uint16()),
        'uint32': pa.array(sometimes_null(rng, ints(0, 2 ** 32 - 1)), pa.uint32()),
        'uint64': pa.array(sometimes_null(rng, ints(0, 2 ** 64 - 1)), pa.uint64()),
        'float16': pa.array(sometimes_null(rng, halfs), pa.float16()),
        'float32': pa.array(sometimes_null(rng, floats), pa.float32()),
        'float64': pa.array(sometimes_null(rng, floats), pa.float64()),
        'string': pa.array(sometimes_null(rng, text()), pa.string()),
        'large_string': pa.array(sometimes_null(rng, text()), pa.large_string()),
        'string_view': pa.array(sometimes_null(rng, text()), pa.string_view()),
        'binary': pa.array(sometimes_null(rng, blobs()), pa.binary()),
        'large_binary': pa.array(sometimes_null(rng, blobs()), pa.large_binary()),
        'binary_view': pa.array(sometimes_null(rng, blobs()), pa.binary_view()),
        'fixed_size_binary': pa.array(sometimes_null(rng, [bytes(rng.randint(0, 255) for _ in range(3)) for _ in range(n)]), pa.binary(3)),
        'decimal32': pa.array(sometimes_null(rng, dec(5, 2)), pa.decimal32(5, 2)),
        'decimal64': pa.array(sometimes_null(rng, dec(15, 2)), pa.decimal64(15, 2)),
        'decimal128_small': pa.array(sometimes_null(rng, dec(7, 3)), pa.decimal128(7, 3)),
        'decimal128': pa.array(sometimes_null(rng, dec(38, 10)), pa.decimal128(38, 10)),
        'decimal128_int': pa.array(sometimes_null(rng, dec(18, 0)), pa.decimal128(18, 0)),
        'decimal256': pa.array(sometimes_null(rng, dec(60, 5)), pa.decimal256(60, 5)),
        'date32': pa.array(sometimes_null(rng, dates), pa.date32()),
        'date64': pa.array(sometimes_null(rng, dates), pa.date64()),
        'time32_s': pa.array(sometimes_null(rng, ints(0, 86399)), pa.time32('s')),
        'time32_ms': pa.array(sometimes_null(rng, ints(0, 86399999)), pa.time32('ms')),
        'time64_us': pa.array(sometimes_null(rng, ints(0, 86399999999)), pa.time64('us')),
        'time64_ns': pa.array(sometimes_null(rng, ints(0, 86399999999999)), pa.time64('ns')),
        'timestamp_s': pa.array(sometimes_null(rng, ints(-2 ** 40, 2 ** 40)), pa.timestamp('s')),
        'timestamp_ms': pa.array(sometimes_null(rng, ints(-2 ** 50, 2 ** 50)), pa.timestamp('ms')),
        'timestamp_us': pa.array(sometimes_null(rng, ints(-2 ** 62, 2 ** 62)), pa.timestamp('us')),
        'timestamp_ns': pa.array(sometimes_null(rng, ints(-2 ** 63, 2 ** 63 - 1)), pa.timestamp('ns')),
        'timestamp_us_utc': pa.array(sometimes_null(rng, ints(-2 ** 62, 2 ** 62)), pa.timestamp('us', 'UTC')),
        'timestamp_ms_ny': pa.array(sometimes_null(rng, ints(-2 ** 50, 2 ** 50)), pa.timestamp('ms', 'America/New_York')),
        'timestamp_ns_offset': pa.array(sometimes_null(rng, ints(-2 ** 62, 2 ** 62)), pa.timestamp('ns', '+01:00')),
        'timestamp_s_tz': pa.array(sometimes_null(rng, ints(-2 ** 40, 2 ** 40)), pa.timestamp('s', 'Asia/Tokyo')),
        'duration_s': pa.array(sometimes_null(rng, ints(-2 ** 40, 2 ** 40)), pa.duration('s')),
        'duration_ms': pa.array(sometimes_null(rng, ints(-2 ** 50, 2 ** 50)), pa.duration('ms')),
        'duration_us': pa.array(sometimes_null(rng, ints(-2 ** 62, 2 ** 62)), pa.duration('us')),
        'duration_ns': pa.array(sometimes_null(rng, ints(-2 ** 63, 2 ** 63 - 1)), pa.duration('ns')),
        'null': pa.nulls(n),
        'dict_string': pa.array(sometimes_null(rng, [rng.choice(tags) for _ in range(n)]), pa.string()).dictionary_encode().cast(pa.dictionary(pa.int8(), pa.string())),
        'dict_binary': pa.array(sometimes_null(rng, [rng.choice(tags).encode() for _ in range(n)]), pa.binary()).dictionary_encode(),
        'dict_large_string': pa.array(sometimes_null(rng, [rng.choice(tags) for _ in range(n)]), pa.large_string()).dictionary_encode(),
        'dict_string_i64': pa.array(sometimes_null(rng, [rng.choice(tags) for _ in range(n)]), pa.string()).dictionary_encode().cast(pa.dictionary(pa.int64(), pa.string())),
        'dict_int64': pa.array(sometimes_null(rng, [rng.choice([5, 7, 2 ** 40]) for _ in range(n)]), pa.int64()).dictionary_encode().cast(pa.dictionary(pa.int16(), pa.int64())),
        'list_int32': pa.array(sometimes_null(rng, [sometimes_null(rng, ints(-5, 5)[: rng.randint(0, 4)]) for _ in range(n)]), pa.list_(pa.int32())),
        'large_list_string': pa.array(sometimes_null(rng, [sometimes_null(rng, text()[: rng.randint(0, 3)]) for _ in range(n)]), pa.large_list(pa.string())),
        'fixed_size_list': pa.array([[rng.randint(-9, 9), rng.randint(-9, 9)] for _ in range(n)], pa.list_(pa.int16(), 2)),
        'list_list': pa.array(sometimes_null(rng, [[sometimes_null(rng, ints(0, 9)[: rng.randint(0, 3)]) for _ in range(rng.randint(0, 3))] for _ in range(n)]), pa.list_(pa.list_(pa.int64()))),
        'list_struct': pa.array(sometimes_null(rng, [[{'a': rng.randint(0, 99), 'b': rng.choice(tags)} for _ in range(rng.randint(0, 3))] for _ in range(n)]), pa.list_(pa.struct([('a', pa.int32()), ('b', pa.string())]))),
        'struct': pa.array(sometimes_null(rng, [{'x': rng.choice([None, rng.randint(0, 9)]), 'y': {'z': rng.choice([None, 'zz', 'é'])}, 'l': [rng.random() for _ in range(rng.randint(0, 2))]} for _ in range(n)]),
                           pa.struct([('x', pa.int32()), ('y', pa.struct([('z', pa.string())])), ('l', pa.list_(pa.float64()))])),
        'map': pa.array(sometimes_null(rng, [[(rng.choice(tags) + str(k), rng.choice([None, rng.randint(0, 9)])) for k in range(rng.randint(0, 3))] for _ in range(n)]), pa.map_(pa.string(), pa.int32())),
        'map_list': pa.array(sometimes_null(rng, [[(k, [rng.choice(tags)]) for k in range(rng.randint(0, 2))] for _ in range(n)]), pa.map_(pa.int64(), pa.list_(pa.string()))),
        'uuid': pa.array(sometimes_null(rng, [uuid.UUID(int=rng.getrandbits(128)).bytes for _ in range(n)]), pa.uuid()),
        'json': pa.array(sometimes_null(rng, [json.dumps({'k': rng.randint(0, 9)}) for _ in range(n)]), pa.json_()),
        'required_int32': pa.array(ints(-100, 100), pa.int32()),
        'required_list': pa.array([ints(0, 9)[: rng.randint(0, 3)] for _ in range(n)], pa.list_(pa.field('item', pa.int32(), nullable=False))),
        'with_id': pa.array(sometimes_null(rng, ints(0, 9)), pa.int64()),
    }
    fields = []
    for name, arr in cols.items():
        nullable = not name.startswith('required')
        md = {'PARQUET:field_id': '42'} if name == 'with_id' else None
        fields.append(pa.field(name, arr.type, nullable=nullable, metadata=md))
    schema = pa.schema(fields, metadata={'origin': 'pyarrow_peer', 'note': 'every type'})
    return pa.Table.from_arrays(list(cols.values()), schema=schema)


def write_ipc(table, path):
    with pa.ipc.new_stream(path, table.schema) as w:
        w.write_table(table)


def write_all(d):
    t = build_table()
    write_ipc(t, f'{d}/source.arrows')
    opts = dict(row_group_size=1000, data_page_size=4096)
    pq.write_table(t, f'{d}/all.parquet', **opts)
    pq.write_table(t, f'{d}/all.noschema.parquet', store_schema=False, **opts)
    write_ipc(pq.read_table(f'{d}/all.parquet'), f'{d}/all.arrows')
    write_ipc(pq.read_table(f'{d}/all.noschema.parquet'), f'{d}/all.noschema.arrows')
    write_ipc(pq.read_table(f'{d}/all.noschema.parquet', read_dictionary=['string', 'binary']), f'{d}/all.dict.arrows')
    print(json.dumps({'ok': True, 'rows': t.num_rows, 'pyarrow': pa.__version__}))


def read(path, out):
    try:
        write_ipc(pq.read_table(path, use_threads=False), out)
        return {'ok': True}
    except Exception as e:  # the peer refuses the file: report why
        return {'error': f'{type(e).__name__}: {e}'}


def same_values(a, b):
    """Equal arrays, NaN equal to NaN (pyarrow's equals says NaN != NaN)."""
    if a.equals(b):
        return True
    def norm(v):
        if isinstance(v, float) and v != v:
            return 'NaN'
        if isinstance(v, list):
            return [norm(x) for x in v]
        if isinstance(v, tuple):
            return tuple(norm(x) for x in v)
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        return v
    return norm(a.to_pylist()) == norm(b.to_pylist())


def unnamed_maps(t):
    """The type with every map's entries field named as pa.map_ names it (apache-arrow always writes 'entries')."""
    def field(f):
        return pa.field(f.name, unnamed_maps(f.type), f.nullable, f.metadata)
    if pa.types.is_map(t):
        return pa.map_(field(t.key_field), field(t.item_field), t.keys_sorted)
    if pa.types.is_list(t):
        return pa.list_(field(t.value_field))
    if pa.types.is_large_list(t):
        return pa.large_list(field(t.value_field))
    if pa.types.is_fixed_size_list(t):
        return pa.list_(field(t.value_field), t.list_size)
    if pa.types.is_struct(t):
        return pa.struct([field(t.field(i)) for i in range(t.num_fields)])
    return t


def compare_ipc(path, ipc, dictionary):
    with pa.ipc.open_stream(ipc) as r:
        ours = r.read_all()
    kw = {'read_dictionary': dictionary} if dictionary else {}
    theirs = pq.read_table(path, use_threads=False, **kw)
    schema, values, map_names = [], [], []
    if ours.num_rows != theirs.num_rows:
        values.append(f'rows: ours {ours.num_rows}, pyarrow {theirs.num_rows}')
    if ours.schema.names != theirs.schema.names:
        schema.append(f'names: ours {ours.schema.names}, pyarrow {theirs.schema.names}')
    if (ours.schema.metadata or {}) != (theirs.schema.metadata or {}):
        schema.append(f'schema metadata: ours {ours.schema.metadata}, pyarrow {theirs.schema.metadata}')
    for f, g in zip(ours.schema, theirs.schema):
        exact = f.equals(g, check_metadata=True)
        if not exact:
            if f.with_type(unnamed_maps(f.type)).equals(g.with_type(unnamed_maps(g.type)), check_metadata=True):
                # equal but for the name of a map's entries field
                map_names.append(f.name)
            else:
                schema.append(f'{f.name}: ours {f.type} nullable={f.nullable} {f.metadata}, pyarrow {g.type} nullable={g.nullable} {g.metadata}')
                continue
        a = ours.column(f.name).combine_chunks()
        b = theirs.column(g.name).combine_chunks()
        if pa.types.is_dictionary(f.type):
            # the dictionaries themselves may be ordered differently: compare the values they encode
            a, b = a.dictionary_decode(), b.dictionary_decode()
        if not same_values(a, b):
            values.append(f'{f.name}: values differ')
    return {'rows': ours.num_rows, 'columns': ours.num_columns, 'schema': schema, 'values': values, 'map_entries_names': map_names}


def dataset_table():
    rng = random.Random(11)
    n = 900
    day0 = datetime.date(2024, 1, 1)
    return pa.table({
        'id': pa.array(range(n), pa.int64()),
        'i32': pa.array(sometimes_null(rng, [rng.randint(-10**6, 10**6) for _ in range(n)]), pa.int32()),
        'f64': pa.array(sometimes_null(rng, [rng.random() * 100 for _ in range(n)]), pa.float64()),
        's': pa.array(sometimes_null(rng, [f's{rng.randint(0, 40)}' for _ in range(n)]), pa.string()),
        'b': pa.array(sometimes_null(rng, [rng.random() < 0.5 for _ in range(n)]), pa.bool_()),
        'd': pa.array(sometimes_null(rng, [day0 + datetime.timedelta(days=rng.randint(0, 500)) for _ in range(n)]), pa.date32()),
        'ts': pa.array(sometimes_null(rng, [rng.randint(0, 2**40) for _ in range(n)]), pa.timestamp('us', tz='UTC')),
        'dec': pa.array(sometimes_null(rng, [decimal.Decimal(rng.randint(-10**8, 10**8)) / 100 for _ in range(n)]), pa.decimal128(10, 2)),
        'l': pa.array(sometimes_null(rng, [[rng.randint(0, 9) for _ in range(rng.randint(0, 3))] for _ in range(n)]), pa.list_(pa.int32())),
        'st': pa.array(sometimes_null(rng, [{'x': rng.randint(0, 99), 'y': None if rng.random() < 0.2 else f'y{rng.randint(0, 9)}'} for _ in range(n)]), pa.struct([('x', pa.int32()), ('y', pa.string())])),
        'year': pa.array([2020 + i % 3 for i in range(n)], pa.int32()),
        'region': pa.array([None if i % 5 == 0 else ('eu' if i % 2 else 'us') for i in range(n)], pa.string()),
    })


def write_dataset(d):
    pq.write_to_dataset(dataset_table(), f'{d}/ds', partition_cols=['year', 'region'], row_group_size=100)
    got = pads.dataset(f'{d}/ds', format='parquet', partitioning='hive').to_table()
    write_ipc(got, f'{d}/ds.arrows')
    print(json.dumps({'ok': True, 'rows': got.num_rows, 'files': len(pads.dataset(f'{d}/ds', format='parquet').files)}))


def compare_sorted(ours, theirs):
    """Two tables sorted by id: names, types and values (NaN equal to NaN)."""
    ours, theirs = ours.sort_by('id'), theirs.sort_by('id')
    schema, values = [], []
    if ours.schema.names != theirs.schema.names:
        schema.append(f'names: ours {ours.schema.names}, pyarrow {theirs.schema.names}')
    for f, g in zip(ours.schema, theirs.schema):
        if f.type != g.type:
            schema.append(f'{f.name}: ours {f.type}, pyarrow {g.type}')
        elif not same_values(ours[f.name].combine_chunks(), theirs[g.name].combine_chunks()):
            values.append(f'{f.name}: values differ')
    return {'rows': [ours.num_rows, theirs.num_rows], 'schema': schema, 'values': values}


def compare_dataset(d, ipc):
    with pa.ipc.open_stream(ipc) as r:
        ours = r.read_all()
    theirs = pads.dataset(f'{d}/ds', format='parquet', partitioning='hive').to_table()
    theirs = theirs.set_column(theirs.schema.get_field_index('year'), 'year', pc.cast(theirs['year'], pa.int64()))
    return compare_sorted(ours, theirs)


def compare_dataset_dirs(a, b):
    read = lambda d: pads.dataset(d, format='parquet', partitioning='hive').to_table()
    return compare_sorted(read(a), read(b))


def unify_files(out, files):
    """Files of one dataset whose stored Arrow schemas differ: pa.unify_schemas of their schemas, the dataset read
    with that schema (written to `out` as IPC), and the schema pyarrow.dataset takes by default (the first file's)."""
    unified = pa.unify_schemas([pq.read_schema(f) for f in files])
    write_ipc(pads.dataset(files, format='parquet', schema=unified).to_table(), out)
    first = pads.dataset(files, format='parquet').schema
    return {'unified': [f'{f.name}: {f.type}' for f in unified], 'default': [f'{f.name}: {f.type}' for f in first]}


if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'write-all':
        write_all(sys.argv[2])
    elif cmd == 'read':
        print(json.dumps(read(sys.argv[2], sys.argv[3])))
    elif cmd == 'read-many':
        d = sys.argv[2]
        print(json.dumps([read(p, f'{d}/{i}.arrows') for i, p in enumerate(sys.argv[3:])]))
    elif cmd == 'write-dataset':
        write_dataset(sys.argv[2])
    elif cmd == 'compare-dataset':
        print(json.dumps(compare_dataset(sys.argv[2], sys.argv[3])))
    elif cmd == 'compare-dataset-dirs':
        print(json.dumps(compare_dataset_dirs(sys.argv[2], sys.argv[3])))
    elif cmd == 'unify-files':
        print(json.dumps(unify_files(sys.argv[2], sys.argv[3:])))
    elif cmd == 'compare-ipc':
        print(json.dumps(compare_ipc(sys.argv[2], sys.argv[3], sys.argv[4:])))
    else:
        raise SystemExit(f'unknown command {cmd}')
