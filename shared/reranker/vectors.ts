/**
 * Query vectors in the artifact, as int8 in base64: a quarter of float32's size, and cosine over
 * unit vectors loses under 1% to the rounding. Works with atob/btoa, present in Node and Workers.
 */
export function packVector(v: Float32Array): string {
  let max = 0;
  for (const x of v) max = Math.max(max, Math.abs(x));
  const bytes = new Uint8Array(v.length);
  for (let i = 0; i < v.length; i++) bytes[i] = (Math.round(max === 0 ? 0 : (v[i]! / max) * 127) + 256) % 256;
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * Whether a string is what `packVector` writes: base64 with its padding (one byte per dimension,
 * so any length of bytes is a whole vector). Anything else would make `unpackVector` throw.
 */
export const isPackedVector = (s: string): boolean => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s);

/** The inverse of `packVector`, up to scale (cosine ignores it). */
export function unpackVector(packed: string): Float32Array {
  const binary = atob(packed);
  const out = new Float32Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    const b = binary.charCodeAt(i);
    out[i] = (b > 127 ? b - 256 : b) / 127;
  }
  return out;
}
