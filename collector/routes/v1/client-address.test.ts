import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../shared/hex.ts';
import { clientAddressHash } from './client-address.ts';

describe('clientAddressHash', () => {
  it('keys the hash with the deployment secret, so the project id alone cannot give the address back', async () => {
    const plain = (await sha256Hex('p1\u0000198.51.100.23')).slice(0, 16);
    expect(await clientAddressHash(undefined, 'p1', '198.51.100.23')).toBe(plain);
    const keyed = await clientAddressHash('s3cret', 'p1', '198.51.100.23');
    expect(keyed).toMatch(/^[0-9a-f]{16}$/);
    expect(keyed).not.toBe(plain);
    expect(await clientAddressHash('s3cret', 'p1', '198.51.100.23')).toBe(keyed);
    expect(await clientAddressHash('other', 'p1', '198.51.100.23')).not.toBe(keyed);
    expect(await clientAddressHash('s3cret', 'p2', '198.51.100.23')).not.toBe(keyed);
    expect(await clientAddressHash('s3cret', 'p1', undefined)).toBeNull();
  });

  it('hashes an IPv6 client by its /64, so sending from another of its addresses is still one address', async () => {
    const one = await clientAddressHash('s3cret', 'p1', '2001:db8:1:2::1');
    expect(await clientAddressHash('s3cret', 'p1', '2001:db8:1:2:abcd::7')).toBe(one);
    expect(await clientAddressHash('s3cret', 'p1', '2001:db8:1:3::1')).not.toBe(one);
  });
});
