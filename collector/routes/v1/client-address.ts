import { sha256Hex } from '../../../shared/hex.ts';

/**
 * The client address as the noise filter sees it: a truncated hash salted with the project, so
 * one address flooding a project can be grouped without storing the address. Null when Cloudflare
 * did not say (local tools).
 */
export async function clientAddressHash(projectId: string, address: string | undefined): Promise<string | null> {
  return address ? (await sha256Hex(`${projectId}\u0000${address}`)).slice(0, 16) : null;
}
