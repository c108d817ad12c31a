;; Attention Lab: the page's matrix products in WebAssembly with 128-bit SIMD: y = x Wᵀ + b in float32 (linear),
;; and y = x b in float64 (product).
;;
;; kernel.js embeds the bytes wat2wasm (npm package wabt, pinned in package-lock.json) makes of
;; this text, and computes the same numbers in plain JavaScript where SIMD is missing
;; (tests/node/test_kernel_js.py checks both). Every output of linear is, in float32:
;;   four lanes, lane r summing x[c]·w[c] for c ≡ r (mod 4) below k − k mod 4, each product
;;   rounded, then added;  (lane 0 + lane 1) + (lane 2 + lane 3);  then each remaining term in
;;   turn;  then the bias.
;; The blocking below (four rows by two outputs at a time, so each number loaded is used
;; several times) changes nothing in that order. All addresses are in bytes. MIT licence.
(module
  (memory (export "memory") 1)

  ;; One output from its lanes: the lanes' sum, the terms past k4, then the bias b.
  (func $finish (param $v v128) (param $x i32) (param $w i32) (param $k4 i32) (param $k i32) (param $b f32)
                (result f32)
    (local $s f32) (local $c i32)
    (local.set $s (f32.add (f32.add (f32x4.extract_lane 0 (local.get $v)) (f32x4.extract_lane 1 (local.get $v)))
                           (f32.add (f32x4.extract_lane 2 (local.get $v)) (f32x4.extract_lane 3 (local.get $v)))))
    (local.set $c (i32.shl (local.get $k4) (i32.const 2)))
    (local.set $k (i32.shl (local.get $k) (i32.const 2)))
    (block $done
      (loop $tail
        (br_if $done (i32.ge_u (local.get $c) (local.get $k)))
        (local.set $s (f32.add (local.get $s)
                               (f32.mul (f32.load (i32.add (local.get $x) (local.get $c)))
                                        (f32.load (i32.add (local.get $w) (local.get $c))))))
        (local.set $c (i32.add (local.get $c) (i32.const 4)))
        (br $tail)))
    (f32.add (local.get $s) (local.get $b)))

  ;; y (n rows of out floats) = x (n rows of k floats) times the rows of w (out rows, wstride floats
  ;; apart, the first k of each used), plus bias (out floats; address 0: no bias, 0 added).
  ;; Past the last row (or output) the last one is computed again and not stored.
  (func (export "linear") (param $x i32) (param $n i32) (param $k i32) (param $w i32) (param $wstride i32)
                          (param $out i32) (param $bias i32) (param $y i32)
    (local $o i32) (local $i i32) (local $c i32) (local $k4 i32) (local $kb i32) (local $row i32)
    (local $w0 i32) (local $w1 i32) (local $x0 i32) (local $x1 i32) (local $x2 i32) (local $x3 i32)
    (local $pair i32) (local $b0 f32) (local $b1 f32) (local $at i32)
    (local $p0 v128) (local $p1 v128) (local $q v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $k4 (i32.and (local.get $k) (i32.const -4)))
    (local.set $kb (i32.shl (local.get $k4) (i32.const 2)))
    (local.set $row (i32.shl (local.get $k) (i32.const 2)))
    (local.set $o (i32.const 0))
    (block $outputs_done
      (loop $outputs
        (br_if $outputs_done (i32.ge_u (local.get $o) (local.get $out)))
        (local.set $pair (i32.lt_u (i32.add (local.get $o) (i32.const 1)) (local.get $out)))
        (local.set $w0 (i32.add (local.get $w) (i32.shl (i32.mul (local.get $o) (local.get $wstride)) (i32.const 2))))
        (local.set $w1 (select (i32.add (local.get $w0) (i32.shl (local.get $wstride) (i32.const 2)))
                               (local.get $w0) (local.get $pair)))
        (local.set $b0 (f32.const 0))
        (local.set $b1 (f32.const 0))
        (if (local.get $bias)
          (then
            (local.set $b0 (f32.load (i32.add (local.get $bias) (i32.shl (local.get $o) (i32.const 2)))))
            (if (local.get $pair)
              (then (local.set $b1 (f32.load (i32.add (local.get $bias)
                                                      (i32.shl (i32.add (local.get $o) (i32.const 1)) (i32.const 2)))))))))
        (local.set $i (i32.const 0))
        (block $rows_done
          (loop $rows
            (br_if $rows_done (i32.ge_u (local.get $i) (local.get $n)))
            (local.set $x0 (i32.add (local.get $x) (i32.mul (local.get $i) (local.get $row))))
            (local.set $x1 (select (i32.add (local.get $x0) (local.get $row)) (local.get $x0)
                                   (i32.lt_u (i32.add (local.get $i) (i32.const 1)) (local.get $n))))
            (local.set $x2 (select (i32.add (local.get $x1) (local.get $row)) (local.get $x1)
                                   (i32.lt_u (i32.add (local.get $i) (i32.const 2)) (local.get $n))))
            (local.set $x3 (select (i32.add (local.get $x2) (local.get $row)) (local.get $x2)
                                   (i32.lt_u (i32.add (local.get $i) (i32.const 3)) (local.get $n))))
            (local.set $a0 (v128.const i32x4 0 0 0 0))
            (local.set $a1 (v128.const i32x4 0 0 0 0))
            (local.set $a2 (v128.const i32x4 0 0 0 0))
            (local.set $a3 (v128.const i32x4 0 0 0 0))
            (local.set $c0 (v128.const i32x4 0 0 0 0))
            (local.set $c1 (v128.const i32x4 0 0 0 0))
            (local.set $c2 (v128.const i32x4 0 0 0 0))
            (local.set $c3 (v128.const i32x4 0 0 0 0))
            (local.set $c (i32.const 0))
            (block $sum_done
              (loop $sum
                (br_if $sum_done (i32.ge_u (local.get $c) (local.get $kb)))
                (local.set $p0 (v128.load (i32.add (local.get $w0) (local.get $c))))
                (local.set $p1 (v128.load (i32.add (local.get $w1) (local.get $c))))
                (local.set $q (v128.load (i32.add (local.get $x0) (local.get $c))))
                (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $q) (local.get $p0))))
                (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $q) (local.get $p1))))
                (local.set $q (v128.load (i32.add (local.get $x1) (local.get $c))))
                (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $q) (local.get $p0))))
                (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $q) (local.get $p1))))
                (local.set $q (v128.load (i32.add (local.get $x2) (local.get $c))))
                (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $q) (local.get $p0))))
                (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (local.get $q) (local.get $p1))))
                (local.set $q (v128.load (i32.add (local.get $x3) (local.get $c))))
                (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $q) (local.get $p0))))
                (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (local.get $q) (local.get $p1))))
                (local.set $c (i32.add (local.get $c) (i32.const 16)))
                (br $sum)))
            ;; y[i + r][o] and y[i + r][o + 1], for the rows and outputs that exist
            (local.set $at (i32.add (local.get $y)
                                    (i32.shl (i32.add (i32.mul (local.get $i) (local.get $out)) (local.get $o))
                                             (i32.const 2))))
            (f32.store (local.get $at)
                       (call $finish (local.get $a0) (local.get $x0) (local.get $w0) (local.get $k4) (local.get $k) (local.get $b0)))
            (if (local.get $pair)
              (then (f32.store offset=4 (local.get $at)
                      (call $finish (local.get $c0) (local.get $x0) (local.get $w1) (local.get $k4) (local.get $k) (local.get $b1)))))
            (if (i32.lt_u (i32.add (local.get $i) (i32.const 1)) (local.get $n))
              (then
                (local.set $at (i32.add (local.get $at) (i32.shl (local.get $out) (i32.const 2))))
                (f32.store (local.get $at)
                           (call $finish (local.get $a1) (local.get $x1) (local.get $w0) (local.get $k4) (local.get $k) (local.get $b0)))
                (if (local.get $pair)
                  (then (f32.store offset=4 (local.get $at)
                          (call $finish (local.get $c1) (local.get $x1) (local.get $w1) (local.get $k4) (local.get $k) (local.get $b1)))))))
            (if (i32.lt_u (i32.add (local.get $i) (i32.const 2)) (local.get $n))
              (then
                (local.set $at (i32.add (local.get $at) (i32.shl (local.get $out) (i32.const 2))))
                (f32.store (local.get $at)
                           (call $finish (local.get $a2) (local.get $x2) (local.get $w0) (local.get $k4) (local.get $k) (local.get $b0)))
                (if (local.get $pair)
                  (then (f32.store offset=4 (local.get $at)
                          (call $finish (local.get $c2) (local.get $x2) (local.get $w1) (local.get $k4) (local.get $k) (local.get $b1)))))))
            (if (i32.lt_u (i32.add (local.get $i) (i32.const 3)) (local.get $n))
              (then
                (local.set $at (i32.add (local.get $at) (i32.shl (local.get $out) (i32.const 2))))
                (f32.store (local.get $at)
                           (call $finish (local.get $a3) (local.get $x3) (local.get $w0) (local.get $k4) (local.get $k) (local.get $b0)))
                (if (local.get $pair)
                  (then (f32.store offset=4 (local.get $at)
                          (call $finish (local.get $c3) (local.get $x3) (local.get $w1) (local.get $k4) (local.get $k) (local.get $b1)))))))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $rows)))
        (local.set $o (i32.add (local.get $o) (i32.const 2)))
        (br $outputs))))

  ;; y (n rows of out float64s) = x (n rows of k) times b (k rows of out): y[i][o] = Σ_c x[i][c]·b[c][o], each product
  ;; rounded and added in order of c (as JavaScript's loop does). n and out are multiples of 4 (the caller pads): four rows
  ;; by four outputs at a time, so each pair of b's numbers loaded serves four rows and each x number four outputs.
  (func (export "product") (param $x i32) (param $n i32) (param $k i32) (param $b i32) (param $out i32) (param $y i32)
    (local $i i32) (local $o i32) (local $row i32) (local $line i32) (local $xc i32) (local $end i32) (local $bc i32)
    (local $at i32) (local $p v128) (local $q v128) (local $s v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local.set $row (i32.shl (local.get $k) (i32.const 3)))
    (local.set $line (i32.shl (local.get $out) (i32.const 3)))
    (local.set $i (i32.const 0))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $o (i32.const 0))
        (block $outputs_done
          (loop $outputs
            (br_if $outputs_done (i32.ge_u (local.get $o) (local.get $out)))
            (local.set $a0 (v128.const i64x2 0 0))
            (local.set $a1 (v128.const i64x2 0 0))
            (local.set $a2 (v128.const i64x2 0 0))
            (local.set $a3 (v128.const i64x2 0 0))
            (local.set $c0 (v128.const i64x2 0 0))
            (local.set $c1 (v128.const i64x2 0 0))
            (local.set $c2 (v128.const i64x2 0 0))
            (local.set $c3 (v128.const i64x2 0 0))
            ;; a_r: y[i + r][o], y[i + r][o + 1];  c_r: y[i + r][o + 2], y[i + r][o + 3]
            (local.set $xc (i32.add (local.get $x) (i32.mul (local.get $i) (local.get $row))))
            (local.set $end (i32.add (local.get $xc) (local.get $row)))
            (local.set $bc (i32.add (local.get $b) (i32.shl (local.get $o) (i32.const 3))))
            (block $sum_done
              (loop $sum
                (br_if $sum_done (i32.ge_u (local.get $xc) (local.get $end)))
                (local.set $p (v128.load (local.get $bc)))
                (local.set $q (v128.load offset=16 (local.get $bc)))
                (local.set $s (v128.load64_splat (local.get $xc)))
                (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $s) (local.get $p))))
                (local.set $c0 (f64x2.add (local.get $c0) (f64x2.mul (local.get $s) (local.get $q))))
                (local.set $s (v128.load64_splat (i32.add (local.get $xc) (local.get $row))))
                (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $s) (local.get $p))))
                (local.set $c1 (f64x2.add (local.get $c1) (f64x2.mul (local.get $s) (local.get $q))))
                (local.set $s (v128.load64_splat (i32.add (local.get $xc) (i32.shl (local.get $row) (i32.const 1)))))
                (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $s) (local.get $p))))
                (local.set $c2 (f64x2.add (local.get $c2) (f64x2.mul (local.get $s) (local.get $q))))
                (local.set $s (v128.load64_splat (i32.add (local.get $xc) (i32.mul (local.get $row) (i32.const 3)))))
                (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $s) (local.get $p))))
                (local.set $c3 (f64x2.add (local.get $c3) (f64x2.mul (local.get $s) (local.get $q))))
                (local.set $xc (i32.add (local.get $xc) (i32.const 8)))
                (local.set $bc (i32.add (local.get $bc) (local.get $line)))
                (br $sum)))
            (local.set $at (i32.add (local.get $y) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $out))
                                                                      (local.get $o)) (i32.const 3))))
            (v128.store (local.get $at) (local.get $a0))
            (v128.store offset=16 (local.get $at) (local.get $c0))
            (local.set $at (i32.add (local.get $at) (local.get $line)))
            (v128.store (local.get $at) (local.get $a1))
            (v128.store offset=16 (local.get $at) (local.get $c1))
            (local.set $at (i32.add (local.get $at) (local.get $line)))
            (v128.store (local.get $at) (local.get $a2))
            (v128.store offset=16 (local.get $at) (local.get $c2))
            (local.set $at (i32.add (local.get $at) (local.get $line)))
            (v128.store (local.get $at) (local.get $a3))
            (v128.store offset=16 (local.get $at) (local.get $c3))
            (local.set $o (i32.add (local.get $o) (i32.const 4)))
            (br $outputs)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $rows))))
)
