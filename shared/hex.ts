/** Bytes as lower-case hex: ids, key hashes and random tokens all spell bytes this one way. */
export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 of a text as hex (Web Crypto: the same in browsers, Node and Workers). */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}
