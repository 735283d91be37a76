import { sha256Hex } from '../../shared/hex.ts';
import type { KeyKind } from './key-kinds.ts';

/** Key prefixes tell a key's kind at a glance (and in an error message) without a lookup. */
const KEY_PREFIX: Record<KeyKind, string> = { write: 'rfw_', server: 'rfs_', admin: 'rfa_', viewer: 'rfv_' };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new random key: prefix + 32 base62 characters (~190 bits). */
export function generateKey(kind: KeyKind): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let body = '';
  for (const b of bytes) body += ALPHABET[b % 62]; // 256 % 62 bias is negligible at 190 bits
  return KEY_PREFIX[kind] + body;
}

/** SHA-256 hex of a key: what the database stores and looks up. */
export const hashKey = (key: string): Promise<string> => sha256Hex(key);

/** The part of a key safe to store and show. */
export const keyPrefix = (key: string) => key.slice(0, 10);
