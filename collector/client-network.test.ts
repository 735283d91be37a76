import { describe, expect, it } from 'vitest';
import { clientNetwork } from './client-network.ts';

describe('clientNetwork', () => {
  it('takes an IPv4 address as it is, and an IPv4-mapped IPv6 one as the IPv4 address', () => {
    expect(clientNetwork('203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetwork('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('takes an IPv6 address by its /64, however it is written', () => {
    const net = '2001:db8:a:b::/64';
    for (const address of ['2001:db8:a:b::1', '2001:db8:a:b:ffff:1:2:3', '2001:0DB8:000a:000B:0:0:0:9', '2001:db8:a:b::1%eth0', '2001:db8:a:b:1::198.51.100.1'])
      expect(clientNetwork(address)).toBe(net);
    expect(clientNetwork('2001:db8:a:c::1')).toBe('2001:db8:a:c::/64');
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
  });

  it('takes what is not an address as it is', () => {
    for (const other of ['unknown', '1:2:3', '1::2::3', '1:2:3:4:5:6:7:8:9', 'g::1']) expect(clientNetwork(other)).toBe(other);
  });
});
