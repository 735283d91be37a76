/** Bytes as lower-case hex: ids, key hashes and random tokens all spell bytes this one way. */
export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
