;; Snappy raw-format decompression kernel for @parquetry/parquet-codecs (hand-written; assembled by
;; tools/wasm/build-wasm.mjs into snappy-wasm.ts). Format:
;; https://github.com/google/snappy/blob/main/format_description.txt
;;
;; The caller (snappy.ts) parses the length preamble, copies the whole stream to memory address 0 and calls
;;   decompress(ip, ipEnd, op, opEnd) -> bytes written, or a negative error code
;; with [ip, ipEnd) the elements after the preamble and [op, opEnd) exactly the declared output length.
;; Addresses must stay below 2^31 (the fast-path limits below are compared as signed numbers).
;; Every element is bounds-checked here: nothing is read at or past ipEnd, nothing is written at or past opEnd
;; (the 8-byte moves of the fast paths only run when the whole move fits before ipEnd / opEnd; the bytes they
;; write past the element are overwritten by the elements that follow). Input positions equal stream positions.
;;
;; A second export splits PLAIN BYTE_ARRAY values (4-byte little-endian length, then the bytes, per value) that the
;; caller copied to memory into offsets and bytes, for a reader's decompressed pages (snappy-kernel.ts):
;;   byteArrays(ip, ipEnd, count, offs, data) -> bytes written at data, or -1 when a length or value runs past ipEnd
;; with count + 1 i32 end offsets (from 0) written at offs. The caller leaves 32 writable bytes after the values' bytes.
;;
;; Error codes (the caller decodes a malformed stream again with the TypeScript loop, which stops at the same element
;; and throws its located error):
;;   -1 truncated literal length          -2 literal runs past the input      -3 literal past the output
;;   -4/-5/-6 truncated 1/2/4-byte-offset copy                                 -7 copy offset 0 or before the start
;;   -8 copy past the output              -9 input ends before the output
(module
  (memory (export "memory") 1)

  (func (export "decompress") (param $ip i32) (param $ipEnd i32) (param $op i32) (param $opEnd i32) (result i32)
    (local $base i32) (local $tag i32) (local $len i32) (local $off i32) (local $from i32) (local $i i32)
    (local $extra i32) (local $ipLim i32) (local $opLim i32)
    (local.set $base (local.get $op))
    ;; the fast paths need 17 readable bytes from the tag on and 16 writable bytes from op on
    (local.set $ipLim (i32.sub (local.get $ipEnd) (i32.const 17)))
    (local.set $opLim (i32.sub (local.get $opEnd) (i32.const 16)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $ip) (local.get $ipEnd)))
        (local.set $tag (i32.load8_u (local.get $ip)))
        (if (i32.eqz (i32.and (local.get $tag) (i32.const 3)))
          (then
            ;; ---- literal; $len holds length - 1 until the checks are done
            (local.set $len (i32.shr_u (local.get $tag) (i32.const 2)))
            ;; fast path: 1..16 bytes with 16 bytes of room after the tag and in the output
            (if (i32.and
                  (i32.lt_u (local.get $len) (i32.const 16))
                  (i32.and (i32.le_s (local.get $op) (local.get $opLim)) (i32.le_s (local.get $ip) (local.get $ipLim))))
              (then
                (i64.store (local.get $op) (i64.load offset=1 (local.get $ip)))
                (i64.store offset=8 (local.get $op) (i64.load offset=9 (local.get $ip)))
                (local.set $ip (i32.add (local.get $ip) (i32.add (local.get $len) (i32.const 2))))
                (local.set $op (i32.add (local.get $op) (i32.add (local.get $len) (i32.const 1))))
                (br $next)))
            (if (i32.lt_u (local.get $len) (i32.const 60))
              (then (local.set $ip (i32.add (local.get $ip) (i32.const 1))))
              (else
                ;; 60..63: 1..4 little-endian length bytes follow the tag
                (local.set $extra (i32.sub (local.get $len) (i32.const 59)))
                (if (i32.le_u (i32.sub (local.get $ipEnd) (local.get $ip)) (local.get $extra))
                  (then (return (i32.const -1))))
                (local.set $len (i32.load8_u offset=1 (local.get $ip)))
                (if (i32.gt_u (local.get $extra) (i32.const 1))
                  (then (local.set $len (i32.or (local.get $len)
                    (i32.shl (i32.load8_u offset=2 (local.get $ip)) (i32.const 8))))))
                (if (i32.gt_u (local.get $extra) (i32.const 2))
                  (then (local.set $len (i32.or (local.get $len)
                    (i32.shl (i32.load8_u offset=3 (local.get $ip)) (i32.const 16))))))
                (if (i32.gt_u (local.get $extra) (i32.const 3))
                  (then (local.set $len (i32.or (local.get $len)
                    (i32.shl (i32.load8_u offset=4 (local.get $ip)) (i32.const 24))))))
                (local.set $ip (i32.add (local.get $ip) (i32.add (local.get $extra) (i32.const 1))))))
            ;; length > input left  <=>  length - 1 >= input left (unsigned, no overflow)
            (if (i32.ge_u (local.get $len) (i32.sub (local.get $ipEnd) (local.get $ip)))
              (then (return (i32.const -2))))
            (if (i32.ge_u (local.get $len) (i32.sub (local.get $opEnd) (local.get $op)))
              (then (return (i32.const -3))))
            (local.set $len (i32.add (local.get $len) (i32.const 1)))
            ;; up to 64 bytes with 8 spare bytes on both sides: 8-byte moves; longer or at an edge: memory.copy
            (if (i32.and
                  (i32.le_u (local.get $len) (i32.const 64))
                  (i32.and
                    (i32.ge_u (i32.sub (i32.sub (local.get $opEnd) (local.get $op)) (local.get $len)) (i32.const 8))
                    (i32.ge_u (i32.sub (i32.sub (local.get $ipEnd) (local.get $ip)) (local.get $len)) (i32.const 8))))
              (then
                (local.set $i (i32.const 0))
                (loop $lit8
                  (i64.store (i32.add (local.get $op) (local.get $i)) (i64.load (i32.add (local.get $ip) (local.get $i))))
                  (local.set $i (i32.add (local.get $i) (i32.const 8)))
                  (br_if $lit8 (i32.lt_u (local.get $i) (local.get $len)))))
              (else
                (memory.copy (local.get $op) (local.get $ip) (local.get $len))))
            (local.set $ip (i32.add (local.get $ip) (local.get $len)))
            (local.set $op (i32.add (local.get $op) (local.get $len)))
            (br $next)))
        ;; ---- copies
        (if (i32.eq (i32.and (local.get $tag) (i32.const 3)) (i32.const 1))
          (then
            ;; fast path: a 1-byte-offset copy (4..11 bytes) with offset 8..written and room for two 8-byte moves
            (if (i32.and (i32.le_s (local.get $op) (local.get $opLim)) (i32.le_s (local.get $ip) (local.get $ipLim)))
              (then
                (local.set $off (i32.or
                  (i32.shl (i32.shr_u (local.get $tag) (i32.const 5)) (i32.const 8))
                  (i32.load8_u offset=1 (local.get $ip))))
                (if (i32.and
                      (i32.ge_u (local.get $off) (i32.const 8))
                      (i32.le_u (local.get $off) (i32.sub (local.get $op) (local.get $base))))
                  (then
                    (local.set $from (i32.sub (local.get $op) (local.get $off)))
                    (i64.store (local.get $op) (i64.load (local.get $from)))
                    (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $from)))
                    (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
                    (local.set $op (i32.add (local.get $op)
                      (i32.add (i32.and (i32.shr_u (local.get $tag) (i32.const 2)) (i32.const 7)) (i32.const 4))))
                    (br $next)))))
            (if (i32.lt_u (i32.sub (local.get $ipEnd) (local.get $ip)) (i32.const 2))
              (then (return (i32.const -4))))
            (local.set $len (i32.add (i32.and (i32.shr_u (local.get $tag) (i32.const 2)) (i32.const 7)) (i32.const 4)))
            (local.set $off (i32.or
              (i32.shl (i32.shr_u (local.get $tag) (i32.const 5)) (i32.const 8))
              (i32.load8_u offset=1 (local.get $ip))))
            (local.set $ip (i32.add (local.get $ip) (i32.const 2))))
          (else
            (local.set $len (i32.add (i32.shr_u (local.get $tag) (i32.const 2)) (i32.const 1)))
            (if (i32.eq (i32.and (local.get $tag) (i32.const 3)) (i32.const 2))
              (then
                (if (i32.lt_u (i32.sub (local.get $ipEnd) (local.get $ip)) (i32.const 3))
                  (then (return (i32.const -5))))
                (local.set $off (i32.load16_u offset=1 (local.get $ip)))
                (local.set $ip (i32.add (local.get $ip) (i32.const 3))))
              (else
                (if (i32.lt_u (i32.sub (local.get $ipEnd) (local.get $ip)) (i32.const 5))
                  (then (return (i32.const -6))))
                (local.set $off (i32.load offset=1 (local.get $ip)))
                (local.set $ip (i32.add (local.get $ip) (i32.const 5)))))))
        ;; offset 0, or before the start of the output: offset - 1 >= written (unsigned)
        (if (i32.ge_u (i32.sub (local.get $off) (i32.const 1)) (i32.sub (local.get $op) (local.get $base)))
          (then (return (i32.const -7))))
        (if (i32.gt_u (local.get $len) (i32.sub (local.get $opEnd) (local.get $op)))
          (then (return (i32.const -8))))
        (local.set $from (i32.sub (local.get $op) (local.get $off)))
        (block $copied
          ;; offset >= 8 with 8 spare output bytes: 8-byte moves in order. Each move reads only bytes already
          ;; final (offset >= 8), so an overlapping copy repeats its pattern as the format intends.
          (if (i32.and
                (i32.ge_u (local.get $off) (i32.const 8))
                (i32.ge_u (i32.sub (i32.sub (local.get $opEnd) (local.get $op)) (local.get $len)) (i32.const 8)))
            (then
              (i64.store (local.get $op) (i64.load (local.get $from)))
              (if (i32.gt_u (local.get $len) (i32.const 8))
                (then
                  (local.set $i (i32.const 8))
                  (loop $cp8
                    (i64.store (i32.add (local.get $op) (local.get $i)) (i64.load (i32.add (local.get $from) (local.get $i))))
                    (local.set $i (i32.add (local.get $i) (i32.const 8)))
                    (br_if $cp8 (i32.lt_u (local.get $i) (local.get $len))))))
              (br $copied)))
          ;; offset 4..7 with 4 spare bytes: 4-byte moves, same reasoning
          (if (i32.and
                (i32.ge_u (local.get $off) (i32.const 4))
                (i32.ge_u (i32.sub (i32.sub (local.get $opEnd) (local.get $op)) (local.get $len)) (i32.const 4)))
            (then
              (local.set $i (i32.const 0))
              (loop $cp4
                (i32.store (i32.add (local.get $op) (local.get $i)) (i32.load (i32.add (local.get $from) (local.get $i))))
                (local.set $i (i32.add (local.get $i) (i32.const 4)))
                (br_if $cp4 (i32.lt_u (local.get $i) (local.get $len))))
              (br $copied)))
          ;; offset 1: a run of one byte
          (if (i32.eq (local.get $off) (i32.const 1))
            (then
              (memory.fill (local.get $op) (i32.load8_u (local.get $from)) (local.get $len))
              (br $copied)))
          ;; non-overlapping at the end of the output
          (if (i32.ge_u (local.get $off) (local.get $len))
            (then
              (memory.copy (local.get $op) (local.get $from) (local.get $len))
              (br $copied)))
          ;; offset 2 or 3, or overlapping at the end of the output: byte by byte (len >= 1)
          (local.set $i (i32.const 0))
          (loop $cp1
            (i32.store8 (i32.add (local.get $op) (local.get $i)) (i32.load8_u (i32.add (local.get $from) (local.get $i))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $cp1 (i32.lt_u (local.get $i) (local.get $len)))))
        (local.set $op (i32.add (local.get $op) (local.get $len)))
        (br $next)))
    (if (i32.ne (local.get $op) (local.get $opEnd))
      (then (return (i32.const -9))))
    (i32.sub (local.get $op) (local.get $base)))

  ;; PLAIN BYTE_ARRAY values at [ip, ipEnd) -> count + 1 offsets at offs, the bytes from data on. A value of up to 32
  ;; bytes with 32 readable bytes after it moves as four 8-byte words (the bytes past it are overwritten by the next
  ;; value, or fall in the caller's 32 spare bytes); longer ones, or at the end, by memory.copy.
  (func (export "byteArrays") (param $ip i32) (param $ipEnd i32) (param $count i32) (param $offs i32) (param $data i32) (result i32)
    (local $a i32) (local $len i32)
    (local.set $a (local.get $data))
    (i32.store (local.get $offs) (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $count)))
        (if (i32.lt_u (i32.sub (local.get $ipEnd) (local.get $ip)) (i32.const 4))
          (then (return (i32.const -1))))
        (local.set $len (i32.load (local.get $ip)))
        (local.set $ip (i32.add (local.get $ip) (i32.const 4)))
        (if (i32.gt_u (local.get $len) (i32.sub (local.get $ipEnd) (local.get $ip)))
          (then (return (i32.const -1))))
        (if (i32.and
              (i32.le_u (local.get $len) (i32.const 32))
              (i32.ge_u (i32.sub (i32.sub (local.get $ipEnd) (local.get $ip)) (local.get $len)) (i32.const 32)))
          (then
            (i64.store (local.get $a) (i64.load (local.get $ip)))
            (i64.store offset=8 (local.get $a) (i64.load offset=8 (local.get $ip)))
            (i64.store offset=16 (local.get $a) (i64.load offset=16 (local.get $ip)))
            (i64.store offset=24 (local.get $a) (i64.load offset=24 (local.get $ip))))
          (else
            (memory.copy (local.get $a) (local.get $ip) (local.get $len))))
        (local.set $ip (i32.add (local.get $ip) (local.get $len)))
        (local.set $a (i32.add (local.get $a) (local.get $len)))
        (local.set $offs (i32.add (local.get $offs) (i32.const 4)))
        (i32.store (local.get $offs) (i32.sub (local.get $a) (local.get $data)))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $next)))
    (i32.sub (local.get $a) (local.get $data))))
