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
  /** Integer dot products of an int16 query with int8 rows (see quantised.ts). */
  dotsI8(q: number, base: number, count: number, stride: number, out: number): void;
}

let compiled: Promise<WasmModule> | null = null;

async function compile(): Promise<WasmModule> {
  const wabt = await wabtInit();
  const parsed = wabt.parseWat('dot-kernel.wat', KERNEL_WAT, { simd: true });
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
