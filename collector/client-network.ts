/**
 * The network a client address stands for, as the IP rate limit and the flooding rule count it: an
 * IPv4 address as it is, an IPv6 address by its /64. A /64 is the least one subscriber (a home, a
 * phone) is given, and any of its 2^64 addresses is theirs to send from: counted one by one, each
 * request could come from an address of its own, always under the limit. An IPv4-mapped address
 * (`::ffff:203.0.113.9`) counts as the IPv4 one; anything else not IPv6 is taken as it is.
 */
export function clientNetwork(address: string): string {
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const groups = ipv6Groups(address.replace(/%.*$/, '')); // a zone (`%eth0`) names an interface, not a network
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

/** The 8 groups of an IPv6 address (lower case, no leading zeros), or undefined when it is not one. */
function ipv6Groups(address: string): string[] | undefined {
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const split = (half: string) => (half === '' ? [] : half.split(':'));
  const head = split(halves[0]!);
  const tail = halves.length === 2 ? split(halves[1]!) : [];
  // An embedded IPv4 address at the end (`64:ff9b::198.51.100.1`) holds the last two groups.
  const last = (tail.length ? tail : head).at(-1);
  const v4 = last?.includes('.') ? 1 : 0;
  const given = head.length + tail.length + v4;
  if (halves.length === 2 ? given > 7 : given !== 8) return undefined;
  const groups = [...head, ...Array<string>(8 - given).fill('0'), ...tail];
  if (v4) groups.splice(groups.length - 1, 1, '0', '0'); // past the /64: only their count matters
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return groups.map((g) => Number.parseInt(g, 16).toString(16));
}
