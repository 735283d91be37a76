import { sha256Hex, toHex } from '../../../shared/hex.ts';
import { clientNetwork } from '../../client-network.ts';

/**
 * The client address as the noise filter sees it: a truncated hash, so one address flooding a
 * project can be grouped without storing the address; an IPv6 client by its /64 (`clientNetwork`),
 * which it may send from any address of. Keyed with the deployment's
 * `ADDRESS_HASH_SECRET` (HMAC-SHA-256) when it is set: an address is one of only 2^32 for IPv4, so
 * a hash anyone can recompute from the project id would give it back in minutes. Without the
 * secret (local development) it is salted with the project alone. Null when Cloudflare did not
 * say (local tools).
 */
export async function clientAddressHash(secret: string | undefined, projectId: string, address: string | undefined): Promise<string | null> {
  if (!address) return null;
  const text = `${projectId}\u0000${clientNetwork(address)}`;
  if (!secret) return (await sha256Hex(text)).slice(0, 16);
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), new TextEncoder().encode(text)))).slice(0, 16);
}

/** The key imported once per isolate (and again only if the secret changes), not on every batch of events. */
let imported: { secret: string; key: Promise<CryptoKey> } | undefined;
function hmacKey(secret: string): Promise<CryptoKey> {
  if (imported?.secret !== secret) {
    imported = { secret, key: crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']) };
  }
  return imported.key;
}
