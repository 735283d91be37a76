import type { Correction } from '../../shared/admin-api/documents.ts';
import { adminCall } from './fixtures.ts';

/** Every correction the inbox lists, across its owners, in its order: of one status, or of the inbox's default when none is named. */
export async function correctionsListed(p: { keys: { admin: string } }, status?: Correction['status']): Promise<Correction[]> {
  const { body } = await adminCall<{ owners: { corrections: Correction[] }[] }>(p, status ? `/corrections?status=${status}` : '/corrections');
  return body.owners.flatMap((o) => o.corrections);
}
