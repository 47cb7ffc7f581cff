"""Peer for pyarrow.integration.test.ts: Arrow C++ (pyarrow) writes and reads encrypted Parquet files.

Keys go through parquet key tools (PKMT1 key material, double wrapping) with a test KMS whose wrapped key is
base64(master key id | key) -- the same KMS the TypeScript test implements.

usage: pyarrow_peer.py write DIR      -> DIR/plain.parquet, DIR/arrow-<algorithm>-<ef|pf>.parquet
       pyarrow_peer.py read FILE      -> JSON {rows, equal} comparing FILE with the table `write` uses
"""
import base64
import json
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe


class Base64Kms(pe.KmsClient):
    def __init__(self, config):
        pe.KmsClient.__init__(self)

    def wrap_key(self, key_bytes, master_key_identifier):
        return base64.b64encode(master_key_identifier.encode() + b'|' + key_bytes)

    def unwrap_key(self, wrapped_key, master_key_identifier):
        raw = base64.b64decode(wrapped_key)
        master, key = raw.split(b'|', 1)
        if master.decode() != master_key_identifier:
            raise ValueError('wrapped with another master key')
        return key


def table():
    n = 5000
    return pa.table({
        'a': pa.array(range(n), pa.int32()),
        's': pa.array([f'row{i % 97}' for i in range(n)]),
        'd': pa.array([i * 0.5 for i in range(n)]),
    })


factory = pe.CryptoFactory(lambda config: Base64Kms(config))
connection = pe.KmsConnectionConfig()

if sys.argv[1] == 'write':
    out = sys.argv[2]
    t = table()
    pq.write_table(t, os.path.join(out, 'plain.parquet'), compression='none', data_page_size=8192)
    for algorithm in ['AES_GCM_V1', 'AES_GCM_CTR_V1']:
        for plaintext_footer in [False, True]:
            config = pe.EncryptionConfiguration(
                footer_key='kf', column_keys={'kc1': ['a', 's']}, encryption_algorithm=algorithm,
                plaintext_footer=plaintext_footer, double_wrapping=True, internal_key_material=True)
            props = factory.file_encryption_properties(connection, config)
            name = f'arrow-{algorithm}-{"pf" if plaintext_footer else "ef"}.parquet'
            pq.write_table(t, os.path.join(out, name), compression='snappy', data_page_size=8192,
                           encryption_properties=props)
else:
    try:
        props = factory.file_decryption_properties(connection, pe.DecryptionConfiguration())
        t = pq.read_table(sys.argv[2], decryption_properties=props)
        print(json.dumps({'rows': t.num_rows, 'equal': t.equals(table())}))
    except Exception as e:  # reported, not raised: the test decides
        print(json.dumps({'error': str(e)}))
