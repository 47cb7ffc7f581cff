"""pyarrow (Arrow C++) peer of apps/conformance/src/peers.ts: reads ONE Parquet file and prints ONE JSON object.

usage: pyarrow_read.py rows FILE    -> {"status", "version", "rows"}   rows: pq.read_table, canonical form
       pyarrow_read.py stats FILE   -> {"status", "version", "stats"}  statistics: pq.ParquetFile(FILE).metadata
The Parquet schema hint tree (tools/peers/canon.mjs `Hint`, read from the footer by hyparquet) comes on stdin as
JSON (`null` when unknown).

The canonical value form is the one tools/peers/canon.mjs defines; this file mirrors its rules (the same names,
one function for each of canon.mjs's) for the Arrow types pyarrow returns:
  null -> None; bool; str; finite float (-0.0 -> 0); NaN/+-inf -> "NaN"/"Infinity"/"-Infinity";
  integers of any width -> int when |x| <= 2^53 - 1, else the decimal string; binary -> "bin:<lowercase hex>";
  decimal -> exact string with `scale` fractional digits; date -> "YYYY-MM-DD"; time -> "HH:MM:SS.fff[fff[fff]]";
  timestamp -> "YYYY-MM-DDTHH:MM:SS.fff[fff[fff]]" + "Z" when adjusted to UTC (INT96: 9 digits, no "Z");
  UUID -> 8-4-4-4-12 lowercase; FLOAT16 -> number; INTERVAL -> {months, days, millis}; JSON -> string;
  list -> list; map -> [{key, value}] in file order; struct -> object (field order).
Values are taken from the Arrow buffers (casts to integers), never through datetime/date objects, which cannot
hold nanoseconds or years outside 1..9999.

What pyarrow 25 returns for the types the canonical form needs a hint for (read_table defaults,
arrow_extensions_enabled=True):
  UUID      -> extension<arrow.uuid> over fixed_size_binary(16): formatted from the storage bytes.
  FLOAT16   -> halffloat: converted from its 16 bits.
  INTERVAL  -> fixed_size_binary(12) (no Arrow type): decoded as three little-endian uint32 by the hint.
  JSON      -> extension<arrow.json> over string: the string.
  unsigned  -> uint8/16/32/64 Arrow types: exact.
  INT96     -> timestamp[ns] (no "Z"; values outside 1677..2262 overflow int64 nanoseconds in Arrow C++).
  VARIANT   -> a plain struct<metadata: binary, value: binary[, typed_value]> (pyarrow 25 has no Variant type):
               printed as that struct; peers.ts decodes unshredded ones with canon.mjs's Variant decoder.
  GEOMETRY/GEOGRAPHY -> extension<geoarrow.wkb> over binary when registered, else binary: "bin:<WKB hex>".
Statistics: min_raw/max_raw (the physical values) are converted like values, by the column's hint; a negative
zero bound stays -0.0 (the sign matters in statistics); num_values is ColumnMetaData.num_values (with nulls).
"""
import json
import math
import re
import sys

import pyarrow as pa
import pyarrow.parquet as pq

MAX_SAFE = 2 ** 53 - 1


# --- scalars (canon.mjs: canonNumber, canonInt, canonBinary, formatDecimal, ...) -----------------------------------

def canon_number(x):
    if math.isnan(x):
        return 'NaN'
    if x == math.inf:
        return 'Infinity'
    if x == -math.inf:
        return '-Infinity'
    if x == 0:
        return 0
    return x


def canon_int(x):
    x = int(x)
    return x if -MAX_SAFE <= x <= MAX_SAFE else str(x)


def canon_binary(b):
    return 'bin:' + bytes(b).hex()


def format_decimal(unscaled, scale):
    neg = unscaled < 0
    digits = str(-unscaled if neg else unscaled)
    if scale <= 0:
        return ('-' if neg else '') + digits + '0' * (-scale)
    if len(digits) <= scale:
        digits = '0' * (scale - len(digits) + 1) + digits
    return ('-' if neg else '') + digits[:len(digits) - scale] + '.' + digits[len(digits) - scale:]


def big_endian_signed(b):
    if len(b) == 0:
        return 0
    return int.from_bytes(bytes(b), 'big', signed=True)


def little_endian_signed(b, pos, n):
    return int.from_bytes(bytes(b[pos:pos + n]), 'little', signed=True)


def civil_from_days(days):
    z = days + 719468
    era = z // 146097  # floor division (canon.mjs truncates, hence its "z - 146096" for negative z)
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y = yoe + era * 400 + (1 if m <= 2 else 0)
    return y, m, d


def format_year(y):
    if 0 <= y <= 9999:
        return str(y).zfill(4)
    return ('-' if y < 0 else '+') + str(abs(y)).zfill(4)


def format_date(days):
    y, m, d = civil_from_days(int(days))
    return f'{format_year(y)}-{m:02d}-{d:02d}'


PER_SECOND = {'millis': 1000, 'micros': 1000000, 'nanos': 1000000000}
DIGITS = {'millis': 3, 'micros': 6, 'nanos': 9}


def format_time(count, unit):
    secs, frac = divmod(int(count), PER_SECOND[unit])
    return f'{secs // 3600:02d}:{secs // 60 % 60:02d}:{secs % 60:02d}.{str(frac).zfill(DIGITS[unit])}'


def format_timestamp(count, unit, utc):
    secs, frac = divmod(int(count), PER_SECOND[unit])
    days, t = divmod(secs, 86400)
    return (f'{format_date(days)}T{t // 3600:02d}:{t // 60 % 60:02d}:{t % 60:02d}.'
            f'{str(frac).zfill(DIGITS[unit])}{"Z" if utc else ""}')


def format_int96(b):
    nanos = little_endian_signed(b, 0, 8)
    julian = little_endian_signed(b, 8, 4)
    return format_timestamp((julian - 2440588) * 86400000000000 + nanos, 'nanos', False)


def rescale(count, frm, to):
    f = PER_SECOND[frm]
    t = PER_SECOND[to]
    if t >= f:
        return count * (t // f)
    d = f // t
    return count // d if count % d == 0 else None


def format_uuid(b):
    h = bytes(b).hex()
    return f'{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}'


def float16_to_number(h):
    sign = -1.0 if h & 0x8000 else 1.0  # floats, as in JS: -1 * 0 is -0
    exp = (h >> 10) & 0x1f
    frac = h & 0x3ff
    if exp == 0:
        return sign * frac * 2.0 ** -24
    if exp == 31:
        return math.nan if frac else sign * math.inf
    return sign * (1 + frac / 1024) * 2.0 ** (exp - 15)


def canon_interval(b):
    b = bytes(b)
    return {'months': int.from_bytes(b[0:4], 'little'), 'days': int.from_bytes(b[4:8], 'little'),
            'millis': int.from_bytes(b[8:12], 'little')}


def trunc_div(a, b):
    """BigInt division of canon.mjs: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


# --- schema hints (canon.mjs: leafKind, structChild, listElement, mapEntry) -----------------------------------------

def _has_unit(lt, u):
    return re.search(f'{u}=[A-Z]|unit={u}\\b', lt) is not None


def leaf_kind(h):
    if not h:
        return None
    lt = h.get('logical') or ''
    conv = h.get('converted')

    def unit_of():
        return 'nanos' if _has_unit(lt, 'NANOS') else 'micros' if _has_unit(lt, 'MICROS') else 'millis'
    if re.match(r'(?i)^Variant', lt) or conv == 'VARIANT':
        return {'kind': 'variant'}
    if h.get('physical') == 'INT96':
        return {'kind': 'int96'}
    if re.match(r'^Timestamp', lt):
        return {'kind': 'timestamp', 'unit': unit_of(), 'utc': re.search(r'isAdjustedToUTC=(1|true)', lt) is not None}
    if re.match(r'^Time', lt):
        return {'kind': 'time', 'unit': unit_of()}
    if conv == 'TIMESTAMP_MILLIS':
        return {'kind': 'timestamp', 'unit': 'millis', 'utc': True}
    if conv == 'TIMESTAMP_MICROS':
        return {'kind': 'timestamp', 'unit': 'micros', 'utc': True}
    if conv == 'TIME_MILLIS':
        return {'kind': 'time', 'unit': 'millis'}
    if conv == 'TIME_MICROS':
        return {'kind': 'time', 'unit': 'micros'}
    if re.match(r'(?i)^uuid', lt):
        return {'kind': 'uuid'}
    if re.match(r'(?i)^float16', lt):
        return {'kind': 'float16'}
    if conv == 'INTERVAL':
        return {'kind': 'interval'}
    if conv == 'DECIMAL' or re.match(r'(?i)^decimal', lt):
        return {'kind': 'decimal', 'scale': h.get('scale') or 0}
    return None


def struct_child(h, name):
    if not h:
        return None
    for c in h.get('children', []):
        if c.get('name') == name:
            return c
    return None


def list_element(h):
    if not h:
        return None
    if h.get('repetition') == 'REPEATED':
        return {**h, 'repetition': 'REQUIRED', 'converted': None, 'logical': None}
    ch = h.get('children', [])
    rep = ch[0] if len(ch) == 1 else None
    if rep is None:
        return None
    rc = rep.get('children', [])
    if len(rc) == 0:
        return {**rep, 'repetition': 'REQUIRED'}
    if len(rc) > 1 or rep.get('name') == 'array' or rep.get('name') == f"{h.get('name')}_tuple":
        return {**rep, 'repetition': 'REQUIRED'}
    return rc[0]


def map_entry(h):
    kv = (h.get('children') or [None])[0] if h else None
    kc = kv.get('children', []) if kv else []
    return (kc[0] if len(kc) > 0 else None), (kc[1] if len(kc) > 1 else None)


# --- Arrow arrays (canon.mjs: fromArrow, one column at a time) -------------------------------------------------------

ARROW_UNIT = {'s': 'millis', 'ms': 'millis', 'us': 'micros', 'ns': 'nanos'}


def timestamp_from(count, unit, utc, k):
    target = unit
    z = utc
    if k and k['kind'] == 'int96':
        target = 'nanos'
        z = False
    elif k and k['kind'] == 'timestamp':
        target = k['unit']
        z = k['utc']
    c = rescale(count, unit, target)
    return format_timestamp(count, unit, z) if c is None else format_timestamp(c, target, z)


def _ints(arr, width):
    return arr.cast(pa.int64() if width == 64 else pa.int32()).to_pylist()


def convert(arr, hint):
    """Canonical values of every slot of one Arrow array (a chunk), as a list."""
    t = arr.type
    k = leaf_kind(hint)
    if isinstance(t, pa.BaseExtensionType):
        return _with_nulls(arr, convert(arr.storage, hint))
    if pa.types.is_dictionary(t):
        return convert(arr.dictionary_decode(), hint)
    if pa.types.is_null(t):
        return [None] * len(arr)
    if pa.types.is_boolean(t):
        return arr.to_pylist()
    if pa.types.is_integer(t):
        return [None if v is None else canon_int(v) for v in arr.to_pylist()]
    if pa.types.is_float16(t):
        bits = arr.view(pa.uint16()).to_pylist()
        return _with_nulls(arr, [None if v is None else canon_number(float16_to_number(v)) for v in bits])
    if pa.types.is_floating(t):
        return [None if v is None else canon_number(v) for v in arr.to_pylist()]
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return arr.to_pylist()
    if pa.types.is_fixed_size_binary(t):
        out = []
        for v in arr.to_pylist():
            if v is None:
                out.append(None)
            elif k and k['kind'] == 'uuid':
                out.append(format_uuid(v))
            elif k and k['kind'] == 'interval':
                out.append(canon_interval(v))
            elif k and k['kind'] == 'float16':
                out.append(canon_number(float16_to_number(v[0] | (v[1] << 8))))
            elif k and k['kind'] == 'int96':
                out.append(format_int96(v))
            else:
                out.append(canon_binary(v))
        return out
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return [None if v is None else canon_binary(v) for v in arr.to_pylist()]
    if pa.types.is_decimal(t):
        return [None if v is None else format_decimal(_unscaled(v, t.scale), t.scale) for v in arr.to_pylist()]
    if pa.types.is_date32(t):
        return [None if v is None else format_date(v) for v in _ints(arr, 32)]
    if pa.types.is_date64(t):
        return [None if v is None else format_date(v // 86400000) for v in _ints(arr, 64)]
    if pa.types.is_time(t):
        unit = ARROW_UNIT[t.unit]
        mul = 1000 if t.unit == 's' else 1
        want = k['unit'] if k and k['kind'] == 'time' else unit
        out = []
        for v in _ints(arr, t.bit_width):
            if v is None:
                out.append(None)
                continue
            c = v * mul
            r = rescale(c, unit, want)
            out.append(format_time(c, unit) if r is None else format_time(r, want))
        return out
    if pa.types.is_timestamp(t):
        unit = ARROW_UNIT[t.unit]
        mul = 1000 if t.unit == 's' else 1
        utc = t.tz is not None and t.tz != ''
        return [None if v is None else timestamp_from(v * mul, unit, utc, k) for v in _ints(arr, 64)]
    if pa.types.is_interval(t):  # month_day_nano
        return [None if v is None else {'months': v.months, 'days': v.days, 'millis': canon_int(trunc_div(v.nanoseconds, 1000000))}
                for v in arr.to_pylist()]
    if pa.types.is_map(t):
        kh, vh = map_entry(hint)
        keys = convert(arr.keys, kh)
        items = convert(arr.items, vh)
        offs = arr.offsets.to_pylist()
        return _with_nulls(arr, [[{'key': keys[j], 'value': items[j]} for j in range(offs[i], offs[i + 1])]
                                 for i in range(len(arr))])
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        vals = convert(arr.values, list_element(hint))
        offs = arr.offsets.to_pylist()
        return _with_nulls(arr, [vals[offs[i]:offs[i + 1]] for i in range(len(arr))])
    if pa.types.is_fixed_size_list(t):
        n = t.list_size
        # every slot's n values, null slots included (flatten() leaves out a null slot's values, shifting the rest)
        vals = convert(arr.values.slice(arr.offset * n, len(arr) * n), list_element(hint))
        return _with_nulls(arr, [vals[i * n:(i + 1) * n] for i in range(len(arr))])
    if pa.types.is_struct(t):
        names = [t.field(i).name for i in range(t.num_fields)]
        cols = [convert(c, struct_child(hint, names[i])) for i, c in enumerate(arr.flatten())]
        return _with_nulls(arr, [{names[c]: cols[c][i] for c in range(len(names))} for i in range(len(arr))])
    raise ValueError(f'canon: unsupported Arrow type {t}')


def _with_nulls(arr, values):
    if arr.null_count == 0:
        return values
    valid = arr.is_valid().to_pylist()
    return [v if ok else None for v, ok in zip(values, valid)]


def _unscaled(d, scale):
    sign, digits, exp = d.as_tuple()
    n = int(''.join(map(str, digits)) or '0')
    shift = exp + scale
    n = n * 10 ** shift if shift >= 0 else n // 10 ** (-shift)
    return -n if sign else n


def table_rows(table, tree):
    names = table.schema.names
    cols = []
    for i, name in enumerate(names):
        h = struct_child(tree, name)
        vals = []
        for chunk in table.column(i).chunks:
            vals.extend(convert(chunk, h))
        cols.append(vals)
    return [{names[c]: cols[c][r] for c in range(len(names))} for r in range(table.num_rows)]


# --- statistics ----------------------------------------------------------------------------------------------------

def leaf_hint(tree, path):
    h = tree
    for p in path:
        h = struct_child(h, p)
    return h


STRING_CONVERTED = ('UTF8', 'JSON', 'ENUM')


def stat_value(v, h, physical):
    """A physical statistics bound (min_raw/max_raw) in canonical form, by the leaf's hint."""
    k = leaf_kind(h)
    lt = (h or {}).get('logical') or ''
    conv = (h or {}).get('converted')
    if physical == 'BOOLEAN':
        return bool(v)
    if physical in ('INT32', 'INT64'):
        v = int(v)
        bits = 32 if physical == 'INT32' else 64
        unsigned = conv in ('UINT_8', 'UINT_16', 'UINT_32', 'UINT_64') or re.search(r'isSigned=(0|false)', lt)
        if unsigned and v < 0:
            v += 1 << bits
        if k and k['kind'] == 'decimal':
            return format_decimal(v, k['scale'])
        if conv == 'DATE' or re.match(r'(?i)^Date', lt):
            return format_date(v)
        if k and k['kind'] == 'time':
            return format_time(v, k['unit'])
        if k and k['kind'] == 'timestamp':
            return format_timestamp(v, k['unit'], k['utc'])
        return canon_int(v)
    if physical in ('FLOAT', 'DOUBLE'):
        v = float(v)
        return v if v == 0 and math.copysign(1, v) < 0 else canon_number(v)
    if physical == 'INT96':
        return format_int96(v)
    b = v.encode('utf-8') if isinstance(v, str) else bytes(v)
    if k and k['kind'] == 'decimal':
        return format_decimal(big_endian_signed(b), k['scale'])
    if k and k['kind'] == 'uuid':
        return format_uuid(b)
    if k and k['kind'] == 'float16' and len(b) == 2:
        x = float16_to_number(b[0] | (b[1] << 8))
        return x if x == 0 and math.copysign(1, x) < 0 else canon_number(x)
    if conv in STRING_CONVERTED or re.match(r'(?i)^(String|Json|Enum)', lt):
        return b.decode('utf-8', errors='replace')
    return canon_binary(b)


def file_stats(path, tree):
    md = pq.ParquetFile(path).metadata
    out = []
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        for c in range(rg.num_columns):
            col = rg.column(c)
            p = col.path_in_schema
            o = {'path': p, 'rowGroup': g}
            s = col.statistics
            if s is not None:
                h = leaf_hint(tree, p.split('.'))
                if s.has_min_max:
                    o['min'] = stat_value(s.min_raw, h, col.physical_type)
                    o['max'] = stat_value(s.max_raw, h, col.physical_type)
                if s.has_null_count:
                    o['nullCount'] = s.null_count
                if s.has_distinct_count:
                    o['distinctCount'] = s.distinct_count
            o['numValues'] = col.num_values
            out.append(o)
    return out


def read_rows(path, tree):
    """Rows of the whole file; when that fails, of each top-level column alone (so one column pyarrow cannot decode
    does not hide the others), with the failing columns' messages in columnErrors."""
    try:
        return {'rows': table_rows(pq.read_table(path), tree)}
    except Exception as whole:
        names = pq.ParquetFile(path).schema_arrow.names
        num_rows = pq.ParquetFile(path).metadata.num_rows
        cols = {}
        errors = {}
        for name in names:
            try:
                t = pq.read_table(path, columns=[name])
                cols[name] = [r[name] for r in table_rows(t, tree)]
            except Exception as e:
                errors[name] = f'{type(e).__name__}: {e}'[:1000]
        if not cols:
            raise whole
        rows = [{n: cols[n][i] for n in names if n in cols} for i in range(num_rows)]
        return {'rows': rows, 'columnErrors': errors}


def main():
    mode, path = sys.argv[1], sys.argv[2]
    version = f'pyarrow {pa.__version__} (Arrow C++ {pa.cpp_version})'
    tree = json.loads(sys.stdin.read() or 'null')
    try:
        if mode == 'rows':
            result = {'status': 'ok', 'version': version, **read_rows(path, tree)}
        else:
            result = {'status': 'ok', 'version': version, 'stats': file_stats(path, tree)}
    except Exception as e:  # a peer that cannot read the file is a result, not a crash
        result = {'status': 'error', 'version': version, 'error': f'{type(e).__name__}: {e}'[:1000]}
    sys.stdout.write(json.dumps(result, allow_nan=False))


if __name__ == '__main__':
    main()
