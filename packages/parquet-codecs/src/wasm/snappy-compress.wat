;; Snappy raw-format compression kernel for @parquetry/parquet-codecs (hand-written; assembled by
;; tools/wasm/build-wasm.mjs into snappy-compress-wasm.ts), and the CRC-32 of what it wrote. Format:
;; https://github.com/google/snappy/blob/main/format_description.txt
;;
;; Memory: the hash table at 0 (2^14 16-bit entries), the CRC-32 tables at 32768 (16 x 256 i32, filled by the start
;; function), then the caller's input. The caller (snappy-compress.ts) copies the input to address $src (at or after
;; 49152), leaves room for the output at $dst (after the input, 8-aligned) and calls
;;   compress(src, n, dst) -> bytes written
;;   crc32(p, n) -> the CRC-32 (ISO-HDLC, as crc32.ts) of the n bytes at p, e.g. the stream compress just wrote
;; The output region must hold maxCompressedLength(n) + 16 bytes (the short literal and copy moves below may write
;; up to 15 bytes past the element they emit; the bytes past it are overwritten by the next element or lie past the
;; end). Reads never go past src + n except the 8-byte literal moves, which may read up to 16 bytes past a
;; literal's end into the gap or the output region (the bytes they move there are overwritten in the same way).
;;
;; The algorithm is exactly the TypeScript encoder's (compressTs in snappy-compress.ts), so both give the same
;; bytes: the input is cut into 64 KiB blocks, each matched on its own with a hash table of 2^8..2^14 16-bit
;; block-relative positions at address 0 (cleared per block, sized to the block), one probe per position hashed,
;; positions skipped ever faster while nothing matches, the first match taken and extended as far as it goes.
;; The element emission avoids branches where the data decides: a literal of 0..16 bytes before a match is stored
;; whole and kept by advancing 0 or len + 1 bytes, and a copy of up to 64 bytes is built in both forms (2-byte
;; copy-1, 3-byte copy-2) and one is stored.
(module
  (memory (export "memory") 1)

  ;; A literal of $len (1..65536) bytes from $from at $op; returns the new output position.
  (func $literal (param $op i32) (param $from i32) (param $len i32) (result i32)
    (local $n i32) (local $i i32)
    (local.set $n (i32.sub (local.get $len) (i32.const 1)))
    (if (i32.lt_u (local.get $n) (i32.const 60))
      (then
        (i32.store8 (local.get $op) (i32.shl (local.get $n) (i32.const 2)))
        (local.set $op (i32.add (local.get $op) (i32.const 1)))
        ;; 1..16 bytes: two 8-byte moves
        (if (i32.le_u (local.get $len) (i32.const 16))
          (then
            (i64.store (local.get $op) (i64.load (local.get $from)))
            (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $from)))
            (return (i32.add (local.get $op) (local.get $len))))))
      (else
        (if (i32.lt_u (local.get $n) (i32.const 256))
          (then
            ;; tag 60 << 2, one length byte
            (i32.store16 (local.get $op) (i32.or (i32.shl (local.get $n) (i32.const 8)) (i32.const 240)))
            (local.set $op (i32.add (local.get $op) (i32.const 2))))
          (else
            ;; tag 61 << 2, two length bytes (a literal never spans blocks, so n <= 0xffff)
            (i32.store8 (local.get $op) (i32.const 244))
            (i32.store16 offset=1 (local.get $op) (local.get $n))
            (local.set $op (i32.add (local.get $op) (i32.const 3)))))))
    (if (i32.le_u (local.get $len) (i32.const 64))
      (then
        ;; 17..64 bytes: 8-byte moves
        (local.set $i (i32.const 0))
        (loop $move
          (i64.store (i32.add (local.get $op) (local.get $i)) (i64.load (i32.add (local.get $from) (local.get $i))))
          (local.set $i (i32.add (local.get $i) (i32.const 8)))
          (br_if $move (i32.lt_u (local.get $i) (local.get $len)))))
      (else
        (memory.copy (local.get $op) (local.get $from) (local.get $len))))
    (i32.add (local.get $op) (local.get $len)))

  ;; Copies of $len (>= 4) bytes at $off (1..65535) back, at $op; returns the new output position.
  (func $copy (param $op i32) (param $off i32) (param $len i32) (result i32)
    ;; the common case first: 4..11 bytes with an 11-bit offset, one 2-byte element
    (if (i32.and (i32.lt_u (local.get $len) (i32.const 12)) (i32.lt_u (local.get $off) (i32.const 2048)))
      (then
        (i32.store16 (local.get $op)
          (i32.or
            (i32.or
              (i32.shl (i32.shr_u (local.get $off) (i32.const 8)) (i32.const 5))
              (i32.shl (i32.sub (local.get $len) (i32.const 4)) (i32.const 2)))
            (i32.or (i32.const 1) (i32.shl (i32.and (local.get $off) (i32.const 0xff)) (i32.const 8)))))
        (return (i32.add (local.get $op) (i32.const 2)))))
    ;; 64-byte copies while 68 or more are left (so at least 4 remain)
    (block $short
      (loop $long
        (br_if $short (i32.lt_u (local.get $len) (i32.const 68)))
        (i32.store8 (local.get $op) (i32.const 254))
        (i32.store16 offset=1 (local.get $op) (local.get $off))
        (local.set $op (i32.add (local.get $op) (i32.const 3)))
        (local.set $len (i32.sub (local.get $len) (i32.const 64)))
        (br $long)))
    ;; 65..67 left: a 60-byte copy, leaving 5..7
    (if (i32.gt_u (local.get $len) (i32.const 64))
      (then
        (i32.store8 (local.get $op) (i32.const 238))
        (i32.store16 offset=1 (local.get $op) (local.get $off))
        (local.set $op (i32.add (local.get $op) (i32.const 3)))
        (local.set $len (i32.sub (local.get $len) (i32.const 60)))))
    (if (i32.and (i32.lt_u (local.get $len) (i32.const 12)) (i32.lt_u (local.get $off) (i32.const 2048)))
      (then
        (i32.store16 (local.get $op)
          (i32.or
            (i32.or
              (i32.shl (i32.shr_u (local.get $off) (i32.const 8)) (i32.const 5))
              (i32.shl (i32.sub (local.get $len) (i32.const 4)) (i32.const 2)))
            (i32.or (i32.const 1) (i32.shl (i32.and (local.get $off) (i32.const 0xff)) (i32.const 8)))))
        (return (i32.add (local.get $op) (i32.const 2)))))
    (i32.store8 (local.get $op) (i32.or (i32.shl (i32.sub (local.get $len) (i32.const 1)) (i32.const 2)) (i32.const 2)))
    (i32.store16 offset=1 (local.get $op) (local.get $off))
    (i32.add (local.get $op) (i32.const 3)))

  (func (export "compress") (param $src i32) (param $n i32) (param $dst i32) (result i32)
    (local $op i32) (local $v i32) (local $end i32) (local $bs i32) (local $be i32) (local $ip i32)
    (local $anchor i32) (local $limit i32) (local $skip i32) (local $step i32) (local $shift i32) (local $seq i32)
    (local $h i32) (local $cand i32) (local $off i32) (local $s i32) (local $len i32) (local $x i64) (local $one i32)
    (local.set $op (local.get $dst))
    ;; preamble: uvarint(n)
    (local.set $v (local.get $n))
    (block $pre
      (loop $more
        (br_if $pre (i32.lt_u (local.get $v) (i32.const 0x80)))
        (i32.store8 (local.get $op) (i32.or (local.get $v) (i32.const 0x80)))
        (local.set $op (i32.add (local.get $op) (i32.const 1)))
        (local.set $v (i32.shr_u (local.get $v) (i32.const 7)))
        (br $more)))
    (i32.store8 (local.get $op) (local.get $v))
    (local.set $op (i32.add (local.get $op) (i32.const 1)))
    (local.set $end (i32.add (local.get $src) (local.get $n)))
    (local.set $bs (local.get $src))
    (block $blocksDone
      (loop $block
        (br_if $blocksDone (i32.ge_u (local.get $bs) (local.get $end)))
        (local.set $be (i32.add (local.get $bs) (i32.const 65536)))
        (if (i32.gt_u (local.get $be) (local.get $end)) (then (local.set $be (local.get $end))))
        (local.set $anchor (local.get $bs))
        (if (i32.ge_u (i32.sub (local.get $be) (local.get $bs)) (i32.const 4))
          (then
            ;; 2^bits table entries, bits = ceil(log2(block length)) within 8..14; shift = 32 - bits
            (local.set $shift (i32.clz (i32.sub (i32.sub (local.get $be) (local.get $bs)) (i32.const 1))))
            (if (i32.lt_u (local.get $shift) (i32.const 18)) (then (local.set $shift (i32.const 18))))
            (if (i32.gt_u (local.get $shift) (i32.const 24)) (then (local.set $shift (i32.const 24))))
            (memory.fill (i32.const 0) (i32.const 0) (i32.shl (i32.const 2) (i32.sub (i32.const 32) (local.get $shift))))
            (local.set $limit (i32.sub (local.get $be) (i32.const 4)))
            ;; the block's first position has nothing before it to match: its table entry is the cleared one (0)
            ;; already, so scanning starts at the second (as the first probe's step of 1 would); every candidate
            ;; read in the loop then lies before the position probed
            (local.set $ip (i32.add (local.get $bs) (i32.const 1)))
            (local.set $skip (i32.const 33))
            (block $scanDone
              (loop $scan
                (br_if $scanDone (i32.gt_u (local.get $ip) (local.get $limit)))
                (local.set $seq (i32.load (local.get $ip)))
                ;; byte address of the table entry
                (local.set $h (i32.shl
                  (i32.shr_u (i32.mul (local.get $seq) (i32.const 0x1e35a7bd)) (local.get $shift))
                  (i32.const 1)))
                (local.set $cand (i32.add (local.get $bs) (i32.load16_u (local.get $h))))
                (i32.store16 (local.get $h) (i32.sub (local.get $ip) (local.get $bs)))
                (if (i32.eq (i32.load (local.get $cand)) (local.get $seq))
                  (then
                    ;; the literal before the match: 0..16 bytes inline (as $literal does them), else the call
                    (local.set $len (i32.sub (local.get $ip) (local.get $anchor)))
                    (if (i32.le_u (local.get $len) (i32.const 16))
                      (then
                        ;; 0..16 bytes: tag and two 8-byte moves, kept only when len > 0 (op advances by 0)
                        (i32.store8 (local.get $op) (i32.shl (i32.sub (local.get $len) (i32.const 1)) (i32.const 2)))
                        (i64.store offset=1 (local.get $op) (i64.load (local.get $anchor)))
                        (i64.store offset=9 (local.get $op) (i64.load offset=8 (local.get $anchor)))
                        (local.set $op (i32.add (local.get $op)
                          (i32.add (local.get $len) (i32.ne (local.get $len) (i32.const 0))))))
                      (else
                        (local.set $op (call $literal (local.get $op) (local.get $anchor) (local.get $len)))))
                    ;; extend the 4 matching bytes: 8 at a time (the first differing byte from the xor's trailing
                    ;; zeros), then byte by byte in the last 7 of the block
                    (local.set $off (i32.sub (local.get $ip) (local.get $cand)))
                    (local.set $s (i32.add (local.get $ip) (i32.const 4)))
                    (block $extended
                      (loop $by8
                        (if (i32.le_u (i32.add (local.get $s) (i32.const 8)) (local.get $be))
                          (then
                            (local.set $x (i64.xor
                              (i64.load (local.get $s))
                              (i64.load (i32.sub (local.get $s) (local.get $off)))))
                            (if (i64.ne (local.get $x) (i64.const 0))
                              (then
                                (local.set $s (i32.add (local.get $s)
                                  (i32.shr_u (i32.wrap_i64 (i64.ctz (local.get $x))) (i32.const 3))))
                                (br $extended)))
                            (local.set $s (i32.add (local.get $s) (i32.const 8)))
                            (br $by8))))
                      (loop $by1
                        (br_if $extended (i32.ge_u (local.get $s) (local.get $be)))
                        (br_if $extended (i32.ne
                          (i32.load8_u (local.get $s))
                          (i32.load8_u (i32.sub (local.get $s) (local.get $off)))))
                        (local.set $s (i32.add (local.get $s) (i32.const 1)))
                        (br $by1)))
                    ;; the copy: up to 64 bytes inline (as $copy does them), else the call
                    (local.set $len (i32.sub (local.get $s) (local.get $ip)))
                    (if (i32.le_u (local.get $len) (i32.const 64))
                      (then
                        ;; one element: copy-1 (2 bytes) when len < 12 and off < 2048, else copy-2 (3 bytes);
                        ;; both forms built, one chosen, 4 bytes stored
                        (local.set $one (i32.and (i32.lt_u (local.get $len) (i32.const 12)) (i32.lt_u (local.get $off) (i32.const 2048))))
                        (i32.store (local.get $op)
                          (select
                            (i32.or
                              (i32.or
                                (i32.shl (i32.shr_u (local.get $off) (i32.const 8)) (i32.const 5))
                                (i32.shl (i32.sub (local.get $len) (i32.const 4)) (i32.const 2)))
                              (i32.or (i32.const 1) (i32.shl (i32.and (local.get $off) (i32.const 0xff)) (i32.const 8))))
                            (i32.or
                              (i32.or (i32.shl (i32.sub (local.get $len) (i32.const 1)) (i32.const 2)) (i32.const 2))
                              (i32.shl (local.get $off) (i32.const 8)))
                            (local.get $one)))
                        (local.set $op (i32.add (local.get $op) (i32.sub (i32.const 3) (local.get $one)))))
                      (else
                        (local.set $op (call $copy (local.get $op) (local.get $off) (local.get $len)))))
                    ;; seed the table with the position just before the match end, so runs chain cheaply
                    (if (i32.le_u (i32.sub (local.get $s) (i32.const 1)) (local.get $limit))
                      (then
                        (i32.store16
                          (i32.shl
                            (i32.shr_u
                              (i32.mul (i32.load (i32.sub (local.get $s) (i32.const 1))) (i32.const 0x1e35a7bd))
                              (local.get $shift))
                            (i32.const 1))
                          (i32.sub (i32.sub (local.get $s) (i32.const 1)) (local.get $bs)))))
                    (local.set $ip (local.get $s))
                    (local.set $anchor (local.get $s))
                    (local.set $skip (i32.const 32))
                    (br $scan)))
                ;; no match: step 1 for 32 probes, then ever longer steps (skip grows by each step)
                (local.set $step (i32.shr_u (local.get $skip) (i32.const 5)))
                (local.set $ip (i32.add (local.get $ip) (local.get $step)))
                (local.set $skip (i32.add (local.get $skip) (local.get $step)))
                (br $scan)))))
        (if (i32.gt_u (local.get $be) (local.get $anchor))
          (then (local.set $op (call $literal (local.get $op) (local.get $anchor)
            (i32.sub (local.get $be) (local.get $anchor))))))
        (local.set $bs (local.get $be))
        (br $block)))
    (i32.sub (local.get $op) (local.get $dst)))

  ;; The CRC-32 tables at 32768: T[k * 256 + b] (i32) is the CRC of byte b followed by k zero bytes.
  (func $crcTables
    (local $n i32) (local $c i32) (local $k i32)
    (loop $tn
      (local.set $c (local.get $n))
      (local.set $k (i32.const 0))
      (loop $bit
        (local.set $c (if (result i32) (i32.and (local.get $c) (i32.const 1))
          (then (i32.xor (i32.const 0xedb88320) (i32.shr_u (local.get $c) (i32.const 1))))
          (else (i32.shr_u (local.get $c) (i32.const 1)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br_if $bit (i32.lt_u (local.get $k) (i32.const 8))))
      (i32.store offset=32768 (i32.shl (local.get $n) (i32.const 2)) (local.get $c))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br_if $tn (i32.lt_u (local.get $n) (i32.const 256))))
    ;; T[k][n] = T[0][T[k-1][n] & 0xff] ^ (T[k-1][n] >>> 8)
    (local.set $n (i32.const 1024))
    (loop $tk
      (local.set $c (i32.load offset=31744 (local.get $n)))
      (i32.store offset=32768 (local.get $n) (i32.xor
        (i32.load offset=32768 (i32.shl (i32.and (local.get $c) (i32.const 0xff)) (i32.const 2)))
        (i32.shr_u (local.get $c) (i32.const 8))))
      (local.set $n (i32.add (local.get $n) (i32.const 4)))
      (br_if $tk (i32.lt_u (local.get $n) (i32.const 16384)))))
  ;; CRC-32 of $n bytes at $p: slicing-by-16 (four 32-bit words, sixteen table lookups per 16 bytes), then bytewise.
  (func (export "crc32") (param $p i32) (param $n i32) (result i32)
    (local $c i32) (local $end i32) (local $a i32) (local $b i32) (local $d i32) (local $e i32)
    (local.set $c (i32.const -1))
    (local.set $end (i32.add (local.get $p) (local.get $n)))
    (if (i32.ge_u (local.get $n) (i32.const 16))
      (then
        (loop $l
          (local.set $a (i32.xor (local.get $c) (i32.load (local.get $p))))
          (local.set $b (i32.load offset=4 (local.get $p)))
          (local.set $d (i32.load offset=8 (local.get $p)))
          (local.set $e (i32.load offset=12 (local.get $p)))
          (local.set $c (i32.xor (i32.xor (i32.xor (i32.xor
            (i32.xor (i32.xor (i32.xor (i32.xor
              (i32.load offset=48128 (i32.shl (i32.and (local.get $a) (i32.const 0xff)) (i32.const 2)))
              (i32.load offset=47104 (i32.and (i32.shr_u (local.get $a) (i32.const 6)) (i32.const 1020))))
              (i32.xor (i32.load offset=46080 (i32.and (i32.shr_u (local.get $a) (i32.const 14)) (i32.const 1020)))
                       (i32.load offset=45056 (i32.shl (i32.shr_u (local.get $a) (i32.const 24)) (i32.const 2)))))
              (i32.xor (i32.load offset=44032 (i32.shl (i32.and (local.get $b) (i32.const 0xff)) (i32.const 2)))
                       (i32.load offset=43008 (i32.and (i32.shr_u (local.get $b) (i32.const 6)) (i32.const 1020)))))
              (i32.xor (i32.load offset=41984 (i32.and (i32.shr_u (local.get $b) (i32.const 14)) (i32.const 1020)))
                       (i32.load offset=40960 (i32.shl (i32.shr_u (local.get $b) (i32.const 24)) (i32.const 2)))))
            (i32.xor (i32.load offset=39936 (i32.shl (i32.and (local.get $d) (i32.const 0xff)) (i32.const 2)))
                     (i32.load offset=38912 (i32.and (i32.shr_u (local.get $d) (i32.const 6)) (i32.const 1020)))))
            (i32.xor (i32.load offset=37888 (i32.and (i32.shr_u (local.get $d) (i32.const 14)) (i32.const 1020)))
                     (i32.load offset=36864 (i32.shl (i32.shr_u (local.get $d) (i32.const 24)) (i32.const 2)))))
            (i32.xor (i32.load offset=35840 (i32.shl (i32.and (local.get $e) (i32.const 0xff)) (i32.const 2)))
                     (i32.load offset=34816 (i32.and (i32.shr_u (local.get $e) (i32.const 6)) (i32.const 1020)))))
            (i32.xor (i32.load offset=33792 (i32.and (i32.shr_u (local.get $e) (i32.const 14)) (i32.const 1020)))
                     (i32.load offset=32768 (i32.shl (i32.shr_u (local.get $e) (i32.const 24)) (i32.const 2))))))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br_if $l (i32.le_u (i32.add (local.get $p) (i32.const 16)) (local.get $end))))))
    (block $done
      (loop $tail
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (i32.xor
          (i32.load offset=32768 (i32.shl (i32.and (i32.xor (local.get $c) (i32.load8_u (local.get $p))) (i32.const 0xff)) (i32.const 2)))
          (i32.shr_u (local.get $c) (i32.const 8))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $tail)))
    (i32.xor (local.get $c) (i32.const -1)))

  (start $crcTables))
