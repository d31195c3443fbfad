/**
 * The embed stage's vector as it travels to the commit: the float32 bytes in base64. Stage outputs
 * are JSON (BullMQ stores them in Redis, in the parent's results and in the queue's event stream);
 * a 641-dimension vector as JSON numbers is about 13 KB and costs a float-to-text conversion per
 * dimension both ways, in base64 it is 3.4 KB and exact (the embedders produce float32).
 * Typed arrays use the platform's byte order, little-endian on every platform Node supports in practice.
 */
export const vectorToWire = (vector: Float32Array): string => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');

/** Also reads a plain number array: the form before this encoding, in jobs queued by an older version. */
export function vectorFromWire(wire: string | number[]): Float32Array {
  if (Array.isArray(wire)) return Float32Array.from(wire);
  const bytes = Buffer.from(wire, 'base64');
  // Copied into a buffer of its own: a Float32Array needs a 4-byte aligned offset.
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}
