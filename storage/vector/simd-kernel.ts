import wabtInit from 'wabt';

/**
 * Dot products of one query against many stored vectors, in WebAssembly with
 * 128-bit SIMD (four float32 lanes, two accumulators). Exact: the same sums a
 * scalar loop computes, in a different association order. The text below is the
 * source; it is assembled with wabt when the index opens.
 */
const KERNEL_WAT = `
(module
  (memory (export "memory") 1)

  ;; out[i] = dot(q, base + i * stride) for i in [0, count)
  (func (export "dots") (param $q i32) (param $base i32) (param $count i32) (param $stride i32) (param $out i32)
    (local $i i32) (local $v i32)
    (local.set $v (local.get $base))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (call $dot (local.get $q) (local.get $v) (local.get $stride)))
        (local.set $v (i32.add (local.get $v) (local.get $stride)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows))))

  ;; out[i] = dot(q, base + slots[i] * stride) for i in [0, count)
  (func (export "dotsAt") (param $q i32) (param $base i32) (param $slots i32) (param $count i32) (param $stride i32) (param $out i32)
    (local $i i32)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (call $dot
            (local.get $q)
            (i32.add (local.get $base)
              (i32.mul (i32.load (i32.add (local.get $slots) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride)))
            (local.get $stride)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows))))

  ;; out[i] = integer dot(q16, codes + i * stride) for i in [0, count): q16 holds the
  ;; query as int16 (two bytes per component), codes the rows as int8. stride is a
  ;; multiple of 32 bytes; the caller keeps |q16| small enough that no i32 sum overflows.
  (func (export "dotsI8") (param $q i32) (param $base i32) (param $count i32) (param $stride i32) (param $out i32)
    (local $i i32) (local $v i32) (local $j i32) (local $p i32) (local $r i32) (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (local.set $v (local.get $base))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $j (i32.const 0))
        (local.set $a (v128.const i32x4 0 0 0 0))
        (local.set $b (v128.const i32x4 0 0 0 0))
        (local.set $c (v128.const i32x4 0 0 0 0))
        (local.set $d (v128.const i32x4 0 0 0 0))
        (block $row
          (loop $cols
            (br_if $row (i32.ge_u (local.get $j) (local.get $stride)))
            ;; load8x8_s reads eight int8 codes sign-extended to int16 lanes
            (local.set $p (i32.add (local.get $v) (local.get $j)))
            (local.set $r (i32.add (local.get $q) (i32.shl (local.get $j) (i32.const 1))))
            (local.set $a (i32x4.add (local.get $a)
              (i32x4.dot_i16x8_s (v128.load8x8_s (local.get $p)) (v128.load (local.get $r)))))
            (local.set $b (i32x4.add (local.get $b)
              (i32x4.dot_i16x8_s (v128.load8x8_s offset=8 (local.get $p)) (v128.load offset=16 (local.get $r)))))
            (local.set $c (i32x4.add (local.get $c)
              (i32x4.dot_i16x8_s (v128.load8x8_s offset=16 (local.get $p)) (v128.load offset=32 (local.get $r)))))
            (local.set $d (i32x4.add (local.get $d)
              (i32x4.dot_i16x8_s (v128.load8x8_s offset=24 (local.get $p)) (v128.load offset=48 (local.get $r)))))
            (local.set $j (i32.add (local.get $j) (i32.const 32)))
            (br $cols)))
        (local.set $a (i32x4.add (i32x4.add (local.get $a) (local.get $b)) (i32x4.add (local.get $c) (local.get $d))))
        (i32.store
          (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $a)) (i32x4.extract_lane 1 (local.get $a)))
            (i32.add (i32x4.extract_lane 2 (local.get $a)) (i32x4.extract_lane 3 (local.get $a)))))
        (local.set $v (i32.add (local.get $v) (local.get $stride)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows))))

  ;; Integer dot products of an int16 query with int8 rows stored in blocks of $rows rows.
  ;; Inside a block, dimensions go in pairs (2p, 2p + 1); each pair is a strip of $rows * 2
  ;; bytes, row by row: c(r, 2p), c(r, 2p + 1), c(r + 1, 2p), ... Only the pairs where the
  ;; query is not zero are read: pairs[j] is the byte offset of the j-th inside a block,
  ;; codes[j] its two int16 codes packed in an i32 (low half dimension 2p). count is a
  ;; multiple of 4. out[r] for every row r of the first blocks * rows; out is also the
  ;; accumulator. The caller keeps |codes| small enough that no i32 sum overflows.
  (func (export "dotsI8Pairs") (param $pairs i32) (param $codes i32) (param $count i32) (param $base i32) (param $blocks i32) (param $rows i32) (param $blockDims i32) (param $out i32)
    (local $b i32) (local $j i32) (local $i i32) (local $end i32) (local $o i32)
    (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local.set $end (i32.shl (local.get $rows) (i32.const 1)))
    (block $done
      (loop $blockLoop
        (br_if $done (i32.ge_u (local.get $b) (local.get $blocks)))
        (memory.fill (local.get $out) (i32.const 0) (i32.shl (local.get $rows) (i32.const 2)))
        (local.set $j (i32.const 0))
        (block $block
          ;; four strips per pass over the accumulators
          (loop $strips
            (br_if $block (i32.ge_u (local.get $j) (local.get $count)))
            (local.set $p0 (i32.add (local.get $base) (i32.load offset=0 (i32.add (local.get $pairs) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $p1 (i32.add (local.get $base) (i32.load offset=4 (i32.add (local.get $pairs) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $p2 (i32.add (local.get $base) (i32.load offset=8 (i32.add (local.get $pairs) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $p3 (i32.add (local.get $base) (i32.load offset=12 (i32.add (local.get $pairs) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $q0 (i32x4.splat (i32.load offset=0 (i32.add (local.get $codes) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $q1 (i32x4.splat (i32.load offset=4 (i32.add (local.get $codes) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $q2 (i32x4.splat (i32.load offset=8 (i32.add (local.get $codes) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $q3 (i32x4.splat (i32.load offset=12 (i32.add (local.get $codes) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $i (i32.const 0))
            (local.set $o (local.get $out))
            (block $strip
              ;; 16 bytes of a strip: eight rows of one pair; extended to int16 and multiplied pairwise, four rows per i32x4
              (loop $eightRows
                (br_if $strip (i32.ge_u (local.get $i) (local.get $end)))
                (local.set $v0 (v128.load (i32.add (local.get $p0) (local.get $i))))
                (local.set $v1 (v128.load (i32.add (local.get $p1) (local.get $i))))
                (local.set $v2 (v128.load (i32.add (local.get $p2) (local.get $i))))
                (local.set $v3 (v128.load (i32.add (local.get $p3) (local.get $i))))
                (v128.store (local.get $o) (i32x4.add (v128.load (local.get $o)) (i32x4.add (i32x4.add (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v0)) (local.get $q0)) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v1)) (local.get $q1))) (i32x4.add (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v2)) (local.get $q2)) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v3)) (local.get $q3))))))
                (v128.store offset=16 (local.get $o) (i32x4.add (v128.load offset=16 (local.get $o)) (i32x4.add (i32x4.add (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v0)) (local.get $q0)) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v1)) (local.get $q1))) (i32x4.add (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v2)) (local.get $q2)) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v3)) (local.get $q3))))))
                (local.set $i (i32.add (local.get $i) (i32.const 16)))
                (local.set $o (i32.add (local.get $o) (i32.const 32)))
                (br $eightRows)))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (br $strips)))
        (local.set $out (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
        (local.set $base (i32.add (local.get $base) (i32.mul (local.get $rows) (local.get $blockDims))))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $blockLoop))))

  ;; The quantised scan's bounds (see quantised.ts): for i in [0, count),
  ;;   approx = qScale * scale[i] * dots[i] + query[top[i]] * topValue[i]
  ;;   w = normQ * width[i] + errorQ * codeNorm[i] + 1e-37
  ;;   lower[i] = approx - w, upper[i] = approx + w
  ;; in float64, in that order of operations. Columns of f64 except dots, top (i32) and query (f32).
  (func (export "bounds") (param $count i32) (param $dots i32) (param $scale i32) (param $width i32) (param $codeNorm i32)
      (param $topValue i32) (param $top i32) (param $query i32) (param $qScale f64) (param $normQ f64) (param $errorQ f64)
      (param $lower i32) (param $upper i32)
    (local $i i32) (local $e i32) (local $approx f64) (local $w f64)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $e (i32.shl (local.get $i) (i32.const 3)))
        (local.set $approx
          (f64.add
            (f64.mul
              (f64.mul (local.get $qScale) (f64.load (i32.add (local.get $scale) (local.get $e))))
              (f64.convert_i32_s (i32.load (i32.add (local.get $dots) (i32.shl (local.get $i) (i32.const 2))))))
            (f64.mul
              (f64.promote_f32 (f32.load (i32.add (local.get $query)
                (i32.shl (i32.load (i32.add (local.get $top) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 2)))))
              (f64.load (i32.add (local.get $topValue) (local.get $e))))))
        (local.set $w
          (f64.add
            (f64.add
              (f64.mul (local.get $normQ) (f64.load (i32.add (local.get $width) (local.get $e))))
              (f64.mul (local.get $errorQ) (f64.load (i32.add (local.get $codeNorm) (local.get $e)))))
            (f64.const 1e-37)))
        (f64.store (i32.add (local.get $lower) (local.get $e)) (f64.sub (local.get $approx) (local.get $w)))
        (f64.store (i32.add (local.get $upper) (local.get $e)) (f64.add (local.get $approx) (local.get $w)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows))))

  ;; stride is a multiple of 32 bytes (vectors are zero-padded to 8 floats)
  (func $dot (param $q i32) (param $v i32) (param $stride i32) (result f32)
    (local $j i32) (local $a v128) (local $b v128)
    (block $done
      (loop $cols
        (br_if $done (i32.ge_u (local.get $j) (local.get $stride)))
        (local.set $a (f32x4.add (local.get $a)
          (f32x4.mul (v128.load (i32.add (local.get $q) (local.get $j))) (v128.load (i32.add (local.get $v) (local.get $j))))))
        (local.set $b (f32x4.add (local.get $b)
          (f32x4.mul (v128.load offset=16 (i32.add (local.get $q) (local.get $j))) (v128.load offset=16 (i32.add (local.get $v) (local.get $j))))))
        (local.set $j (i32.add (local.get $j) (i32.const 32)))
        (br $cols)))
    (local.set $a (f32x4.add (local.get $a) (local.get $b)))
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
      (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a))))))
`;

/** The few WebAssembly JS API members used here (the DOM lib that declares them is not loaded). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
type WasmModule = object;
const Wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WasmModule; Instance: new (module: WasmModule, imports: object) => { exports: unknown } } }).WebAssembly;

export interface DotKernel {
  memory: WasmMemory;
  dots(q: number, base: number, count: number, stride: number, out: number): void;
  dotsAt(q: number, base: number, slots: number, count: number, stride: number, out: number): void;
  /** The quantised scan's lower and upper bounds per row (see quantised.ts). */
  bounds(
    count: number,
    dots: number,
    scale: number,
    width: number,
    codeNorm: number,
    topValue: number,
    top: number,
    query: number,
    qScale: number,
    normQ: number,
    errorQ: number,
    lower: number,
    upper: number,
  ): void;
  /** Integer dot products of an int16 query with int8 rows, row after row (see quantised.ts). */
  dotsI8(q: number, base: number, count: number, stride: number, out: number): void;
  /** Integer dot products of an int16 query's non-zero dimension pairs with int8 rows in blocks (see quantised.ts). */
  dotsI8Pairs(pairs: number, codes: number, count: number, base: number, blocks: number, rows: number, blockDims: number, out: number): void;
}

let compiled: Promise<WasmModule> | null = null;

async function compile(): Promise<WasmModule> {
  const wabt = await wabtInit();
  const parsed = wabt.parseWat('dot-kernel.wat', KERNEL_WAT, { simd: true, bulk_memory: true });
  try {
    parsed.resolveNames();
    parsed.validate();
    return new Wasm.Module(parsed.toBinary({}).buffer);
  } finally {
    parsed.destroy();
  }
}

/** Assembles the kernel once; the returned factory makes instances, each with its own linear memory. */
export async function prepareDotKernel(): Promise<() => DotKernel> {
  compiled ??= compile();
  const module = await compiled;
  return () => new Wasm.Instance(module, {}).exports as DotKernel;
}
