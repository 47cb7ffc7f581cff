"""polars peer of apps/conformance/src/peers.ts: reads ONE Parquet file with polars and prints ONE JSON object.

usage: polars_read.py rows FILE   -> {"status", "version", "rows"[, "columnErrors"]}
                                     (the schema hint tree, tools/peers/canon.mjs `Hint`, as JSON on stdin)
       polars_read.py batch       -> one JSON line per event (peer_batch.py): many files in one process

polars decodes Parquet with its own Rust implementation (polars-parquet, a fork of parquet2; not arrow-rs, not
Arrow C++), so it is an independent reader. Its DataFrame is handed over to Arrow (`DataFrame.to_arrow()`, a
zero-copy export of polars' own buffers) only as a container: the values are the ones polars decoded, and they
are put in canonical form by pyarrow_read.py's converter (the canonical form of tools/peers/canon.mjs), so the two
Python peers print values the same way.

What polars 1.x returns where the canonical form needs the Parquet annotation (hint):
  UUID, FLOAT16, INTERVAL (FIXED_LEN_BYTE_ARRAY) -> Binary (polars has no such types): the bytes, formatted by
      the hint as canon.mjs formats a fixed-size binary of that annotation (UUID string, half float, interval).
  MAP  -> List(Struct{key, value}): the same canonical shape as a map ([{key, value}]).
  ENUM -> Binary: printed as binary (a listed limitation, as for pyarrow).
  unsigned integers, decimals up to precision 38, timestamps/times in each unit, INT96 -> their polars types.
Files or columns polars refuses are errors (listed and asserted per case in src/python-peer-limits.ts).

When the whole file fails, each top-level column is read alone (so one column polars cannot decode does not hide
the others); the failing columns' messages go to columnErrors. A file whose footer or schema polars rejects fails
for every column, and is reported as one error.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault('POLARS_MAX_THREADS', '1')
os.environ['RUST_BACKTRACE'] = '0'  # a panic is a result here (its message is kept), not a debugging session  # several peers run side by side; one thread each is enough

import polars as pl  # noqa: E402
import pyarrow as pa  # noqa: E402

import peer_batch as batch  # noqa: E402
import pyarrow_read as canon  # noqa: E402


def convert(arr, hint):
    """Canonical values of one Arrow array exported by polars; binary leaves whose annotation polars drops
    (UUID, FLOAT16, INTERVAL: FIXED_LEN_BYTE_ARRAY) are formatted by the hint, the rest by pyarrow_read."""
    t = arr.type
    k = canon.leaf_kind(hint)
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t)) and k and k['kind'] in ('uuid', 'float16', 'interval'):
        fixed = arr.cast(pa.large_binary()).cast(pa.binary(16 if k['kind'] == 'uuid' else 2 if k['kind'] == 'float16' else 12))
        return canon.convert(fixed, hint)
    if pa.types.is_struct(t):
        names = [t.field(i).name for i in range(t.num_fields)]
        cols = [convert(c, canon.struct_child(hint, names[i])) for i, c in enumerate(arr.flatten())]
        return canon._with_nulls(arr, [{names[c]: cols[c][i] for c in range(len(names))} for i in range(len(arr))])
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        is_map = hint is not None and (hint.get('converted') in ('MAP', 'MAP_KEY_VALUE') or (hint.get('logical') or '').lower().startswith('map'))
        if is_map:
            kv = (hint.get('children') or [None])[0]
            eh = kv and {**kv, 'repetition': 'REQUIRED'}
        else:
            eh = canon.list_element(hint)
        vals = convert(arr.values, eh)
        offs = arr.offsets.to_pylist()
        return canon._with_nulls(arr, [vals[offs[i]:offs[i + 1]] for i in range(len(arr))])
    if pa.types.is_fixed_size_list(t):
        n = t.list_size
        # every slot's n values, null slots included (flatten() would leave out the nulls' values)
        vals = convert(arr.values.slice(arr.offset * n, len(arr) * n), canon.list_element(hint))
        return canon._with_nulls(arr, [vals[i * n:(i + 1) * n] for i in range(len(arr))])
    return canon.convert(arr, hint)


def frame_rows(df, tree):
    table = df.to_arrow()
    names = table.schema.names
    cols = []
    for i, name in enumerate(names):
        h = canon.struct_child(tree, name)
        vals = []
        for chunk in table.column(i).chunks:
            vals.extend(convert(chunk, h))
        cols.append(vals)
    return [{names[c]: cols[c][r] for c in range(len(names))} for r in range(table.num_rows)]


def message(e):
    return f'{type(e).__name__}: {e}'[:1000]


def read_rows(path, tree, skip=None, mark=None):
    if mark:
        mark(None)
    try:
        if skip:
            raise RuntimeError('some columns are to be skipped')
        return {'rows': frame_rows(pl.read_parquet(path), tree)}
    except BaseException as whole:  # polars raises pyo3 PanicException (a BaseException) for some files
        if isinstance(whole, (KeyboardInterrupt, SystemExit)):
            raise
        names = [c['name'] for c in (tree or {}).get('children', [])]
        cols = {}
        errors = {}
        num_rows = None
        for name in names:
            if skip and name in skip:
                errors[name] = skip[name]
                continue
            if mark:
                mark(name)
            try:
                df = pl.read_parquet(path, columns=[name])
                cols[name] = [r[name] for r in frame_rows(df, tree)]
                num_rows = len(cols[name])
            except BaseException as e:
                if isinstance(e, (KeyboardInterrupt, SystemExit)):
                    raise
                errors[name] = message(e)
        if not cols:
            raise RuntimeError(message(whole)) from whole
        rows = [{n: cols[n][i] for n in names if n in cols} for i in range(num_rows or 0)]
        return {'rows': rows, 'columnErrors': errors}


def one(path, tree, skip=None, mark=None):
    try:
        return {'status': 'ok', **read_rows(path, tree, skip, mark)}
    except BaseException as e:  # a peer that cannot read the file is a result, not a crash
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        return {'status': 'error', 'error': str(e)[:1000] if isinstance(e, RuntimeError) else message(e)}


def main():
    version = f'polars {pl.__version__}'
    if sys.argv[1] == 'batch':
        batch.run(version, one, 'polars')
        return
    tree = json.loads(sys.stdin.read() or 'null')
    sys.stdout.write(json.dumps({**one(sys.argv[2], tree), 'version': version}, allow_nan=False))


if __name__ == '__main__':
    main()
