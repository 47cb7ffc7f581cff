"""fastparquet peer of apps/conformance/src/peers.ts: reads Parquet files with fastparquet and prints ONE JSON object.

usage: fastparquet_read.py rows FILE   -> {"status", "version", "rows"[, "columnErrors"]}
                                          (the schema hint tree, tools/peers/canon.mjs `Hint`, as JSON on stdin)
       fastparquet_read.py batch       -> one JSON line per event (peer_batch.py): many files in one process

fastparquet is an independent Python/numba implementation (its own Thrift parser, page decoders and assembly).
It returns a pandas frame; its values are put in the canonical form of tools/peers/canon.mjs here, with the
scalar formatters of pyarrow_read.py (plain functions; pyarrow itself is not used to read anything).

Each top-level column is read alone (`ParquetFile.to_pandas(columns=[...])`), so one column fastparquet cannot
decode does not hide the others; failing columns go to columnErrors. What fastparquet returns, by the hint:
  BOOLEAN / INT* / unsigned -> numpy or pandas nullable scalars; FLOAT/DOUBLE -> float, a null is NaN ("NaN" here:
      fastparquet cannot tell a null from NaN in a float column).
  DECIMAL -> float64 (printed as a JSON number; a listed limitation), UTF8/JSON -> str, ENUM/BSON/binary -> bytes.
  DATE, TIMESTAMP (each unit), INT96 -> datetime64 of some unit: the integer count is taken from the array and
      rescaled to the column's unit; TIME -> integer counts or timedelta64.
  FIXED_LEN_BYTE_ARRAY -> numpy bytes_ (trailing NUL bytes are dropped by numpy: a listed limitation); UUID,
      FLOAT16 and INTERVAL are formatted from the bytes by the hint.
  LIST -> a Python list (or ndarray) per row; MAP -> a dict per row ([{key, value}] in dict order).
  STRUCT -> flattened into dotted columns ("s.a", "s.l"): rebuilt here as {a, l} per row (fastparquet keeps no
      struct-level null).
  Inside a list: the physical values (see `value`), converted by the annotation here.
"""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fastparquet  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import peer_batch as batch  # noqa: E402
import pyarrow_read as canon  # noqa: E402  (scalar formatters and hint helpers only)

NP_UNIT = {'D': None, 's': 'millis', 'ms': 'millis', 'us': 'micros', 'ns': 'nanos'}
NP_MUL = {'s': 1000, 'ms': 1, 'us': 1, 'ns': 1}


def is_null(v):
    if v is None or v is pd.NA or v is pd.NaT:
        return True
    if isinstance(v, (np.datetime64, np.timedelta64)):
        return bool(np.isnat(v))
    return False


def count_of(v):
    """(count, numpy unit) of a datetime64/timedelta64/pandas Timestamp value."""
    if isinstance(v, pd.Timestamp):
        v = v.to_datetime64()
    elif isinstance(v, pd.Timedelta):
        v = v.to_timedelta64()
    unit = np.datetime_data(v.dtype)[0]
    return int(v.astype(np.int64)), unit


def is_map(h):
    return h is not None and (h.get('converted') in ('MAP', 'MAP_KEY_VALUE') or (h.get('logical') or '').lower().startswith('map'))


def is_list(h):
    return h is not None and (h.get('converted') == 'LIST' or (h.get('logical') or '').lower().startswith('list') or h.get('repetition') == 'REPEATED')


FIXED_WIDTH = {'uuid': 16, 'interval': 12, 'float16': 2, 'int96': 12}


def unsigned_bits(h):
    """Bit width of an unsigned integer annotation (UINT_n / Int(bitWidth=n, isSigned=false)), else None."""
    conv = (h or {}).get('converted') or ''
    if conv.startswith('UINT_'):
        return int(conv[5:])
    lt = (h or {}).get('logical') or ''
    m = re.search(r'bitWidth=(\d+), *isSigned=(0|false)', lt)
    return int(m.group(1)) if m else None


def value(v, h, width=None):
    """Canonical form of one value fastparquet returned for a node with hint h. Inside lists fastparquet returns
    the physical values (unscaled decimal integers, INT96 bytes, signed 32/64-bit words for unsigned types): they
    are converted by the annotation here, as canon.mjs does for any peer's physical value. `width`: the byte
    width of a FIXED_LEN_BYTE_ARRAY column when known (numpy drops trailing NUL bytes of its bytes values)."""
    if is_null(v):
        return None
    if h is not None and h.get('children') and h.get('physical') is None:
        if is_map(h):
            kv = (h.get('children') or [None])[0]
            kh, vh = canon.map_entry(h)
            if not isinstance(v, dict):
                # fastparquet 2026.9 returns the keys alone for a map whose values are lists
                return [value(x, kh) for x in list(v)]
            items = list(v.items())
            return [{'key': value(k, kh), 'value': value(x, vh)} if kv and len(kv.get('children', [])) > 1 else {'key': value(k, kh)} for k, x in items]
        if is_list(h):
            eh = canon.list_element(h)
            return [value(x, eh) for x in list(v)]
        if isinstance(v, dict):
            return {c['name']: value(v.get(c['name']), c) for c in h['children']}
        raise ValueError(f'fastparquet_read: unexpected {type(v).__name__} for group {h.get("name")}')
    k = canon.leaf_kind(h)
    phys = (h or {}).get('physical')
    conv = (h or {}).get('converted')
    lt = (h or {}).get('logical') or ''
    if isinstance(v, (float, np.floating)) and math.isnan(v) and phys not in ('FLOAT', 'DOUBLE'):
        return None  # pandas' missing value in an object column (a null string, say)
    if (conv == 'JSON' or lt.lower().startswith('json')) and not isinstance(v, (str, bytes, np.bytes_)):
        return {'json': v}  # fastparquet parses top-level JSON values into Python objects (a listed limitation)
    if isinstance(v, (np.datetime64, pd.Timestamp)):
        count, unit = count_of(v)
        if unit == 'D' or conv == 'DATE' or lt.lower().startswith('date'):
            days = count if unit == 'D' else count // ({'s': 86400, 'ms': 86400000, 'us': 86400000000, 'ns': 86400000000000}[unit])
            return canon.format_date(days)
        return canon.timestamp_from(count * NP_MUL[unit], NP_UNIT[unit], False, k)
    if isinstance(v, (np.timedelta64, pd.Timedelta)):
        count, unit = count_of(v)
        c = count * NP_MUL[unit]
        u = NP_UNIT[unit]
        want = k['unit'] if k and k['kind'] == 'time' else u
        r = canon.rescale(c, u, want)
        return canon.format_time(c, u) if r is None else canon.format_time(r, want)
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (bytes, np.bytes_, bytearray)):
        b = bytes(v)
        w = width or (FIXED_WIDTH.get(k['kind']) if k else None) or (12 if phys == 'INT96' else None)
        if w is not None and len(b) < w:
            b = b + bytes(w - len(b))
        if k and k['kind'] == 'decimal':
            return canon.format_decimal(canon.big_endian_signed(b), k['scale'])
        if k and k['kind'] == 'uuid' and len(b) == 16:
            return canon.format_uuid(b)
        if k and k['kind'] == 'interval' and len(b) == 12:
            return canon.canon_interval(b)
        if k and k['kind'] == 'float16' and len(b) == 2:
            return canon.canon_number(canon.float16_to_number(b[0] | (b[1] << 8)))
        if k and k['kind'] == 'int96' and len(b) == 12:
            return canon.format_int96(b)
        if conv in ('UTF8', 'JSON') or re.match(r'(?i)^(String|Json)', lt):
            return b.decode('utf-8', errors='replace')  # inside lists: the bytes; fastparquet's own top-level decoding
        return canon.canon_binary(b)
    if isinstance(v, str):
        return v
    if isinstance(v, (int, np.integer)):
        x = int(v)
        bits = unsigned_bits(h)
        if bits is not None and x < 0:
            x += 1 << bits
        if k and k['kind'] == 'decimal':
            return canon.format_decimal(x, k['scale'])
        if k and k['kind'] == 'time':
            return canon.format_time(x, k['unit'])
        if k and k['kind'] == 'timestamp':
            return canon.format_timestamp(x, k['unit'], k['utc'])
        if conv == 'DATE' or lt.lower().startswith('date'):
            return canon.format_date(x)
        return canon.canon_int(x)
    if isinstance(v, (float, np.floating)):
        x = float(v)
        if k and k['kind'] == 'decimal':
            return x if not math.isnan(x) else None  # a decimal column's null is NaN too
        return canon.canon_number(x)
    raise ValueError(f'fastparquet_read: unexpected {type(v).__name__} for {(h or {}).get("name")}')


def column_values(pf, name, h):
    """Canonical values of one top-level column, read alone."""
    return column_values_of(lambda cols: pf.to_pandas(columns=cols), pf.count(), name, h)


def column_values_of(frame, count, name, h):
    """Canonical values of the column `name` (hint h) of `frame(columns)`; a struct from its dotted columns."""
    if h is not None and h.get('physical') is None and h.get('children') and not is_map(h) and not is_list(h):
        # a struct: fastparquet flattens it into dotted leaf columns
        kids = h['children']
        cols = [column_values_of(frame, count, f'{name}.{c["name"]}', c) for c in kids]
        return [{c['name']: cols[j][i] for j, c in enumerate(kids)} for i in range(count)]
    s = frame([name])[name]
    width = s.dtype.itemsize if s.dtype.kind == 'S' else None
    return [value(x, h, width) for x in s.tolist()]


def message(e):
    return f'{type(e).__name__}: {e}'[:1000]


def read_rows(path, tree, skip=None, mark=None):
    """Rows of the file, column by column; `skip` maps columns not to read to their error (a column that crashed
    the process before), `mark(name)` is called before each column is read."""
    pf = fastparquet.ParquetFile(path)
    names = [c['name'] for c in (tree or {}).get('children', [])]
    cols = {}
    errors = {}
    for name in names:
        if skip and name in skip:
            errors[name] = skip[name]
            continue
        if mark:
            mark(name)
        try:
            cols[name] = column_values(pf, name, canon.struct_child(tree, name))
        except Exception as e:
            errors[name] = message(e)
    if not cols and errors:
        raise RuntimeError(f'every column failed; first: {next(iter(errors.values()))}')
    n = pf.count()
    rows = [{c: cols[c][i] for c in names if c in cols} for i in range(n)]
    out = {'rows': rows}
    if errors:
        out['columnErrors'] = errors
    return out


def one(path, tree, skip=None, mark=None):
    try:
        return {'status': 'ok', **read_rows(path, tree, skip, mark)}
    except Exception as e:  # a peer that cannot read the file is a result, not a crash
        return {'status': 'error', 'error': str(e)[:1000] if isinstance(e, RuntimeError) else message(e)}


def main():
    version = f'fastparquet {fastparquet.__version__} (pandas {pd.__version__}, numpy {np.__version__})'
    if sys.argv[1] == 'batch':
        batch.run(version, one, 'fastparquet', isolate=True)
        return
    tree = json.loads(sys.stdin.read() or 'null')
    sys.stdout.write(json.dumps({**one(sys.argv[2], tree), 'version': version}, allow_nan=False))


if __name__ == '__main__':
    main()
