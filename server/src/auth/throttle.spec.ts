// Who a login limit counts as one client: an IPv4 address, or an IPv6 network of the configured
// prefix (LOGIN_IPV6_PREFIX, 64 by default), whatever way the address is written.
import { describe, expect, it } from 'vitest';
import { clientOf, loginLimits } from './throttle';

describe('clientOf', () => {
  it('is an IPv4 address itself', () => {
    expect(clientOf('192.0.2.1', 64)).toBe('192.0.2.1');
    expect(clientOf('127.0.0.250', 64)).toBe('127.0.0.250');
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(clientOf('::ffff:192.0.2.1', 64)).toBe('192.0.2.1');
    expect(clientOf('::FFFF:c000:201', 64)).toBe('192.0.2.1');
    expect(clientOf('0:0:0:0:0:ffff:192.0.2.1', 128)).toBe('192.0.2.1');
  });

  it('is the /64 of an IPv6 address, written one way', () => {
    const slash64 = '2001:db8:1:2::/64';
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:a:b:c:d', '2001:db8:1:2:0:0:0:0']) {
      expect(clientOf(address, 64), address).toBe(slash64);
    }
    expect(clientOf('2001:db8:1:3::1', 64)).toBe('2001:db8:1:3::/64');
    expect(clientOf('::1', 64)).toBe('::/64');
    // A link-local address's zone names the interface, not the client.
    expect(clientOf('fe80::1:2%eth0', 64)).toBe('fe80::/64');
  });

  it('takes the prefix length it is given', () => {
    expect(clientOf('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(clientOf('2001:db8:1:ff::1', 48)).toBe('2001:db8:1::/48');
    expect(clientOf('2001:db8:1:2:3:4:5:6', 56)).toBe('2001:db8:1::/56');
    expect(clientOf('2001:db8:1:2ff:3:4:5:6', 56)).toBe('2001:db8:1:200::/56');
    expect(clientOf('2001:db8:1:2:3:4:5:6', 128)).toBe('2001:db8:1:2:3:4:5:6/128');
    expect(clientOf('2001:db8:1:2:3:4:5:6', 60)).toBe('2001:db8:1::/60');
    expect(clientOf('2001:db8:1:1f:3:4:5:6', 60)).toBe('2001:db8:1:10::/60');
  });

  it('keeps what is not an address as it came (no socket address: one client "unknown")', () => {
    expect(clientOf(undefined, 64)).toBe('unknown');
    expect(clientOf('', 64)).toBe('unknown');
    expect(clientOf('not-an-address', 64)).toBe('not-an-address');
  });
});

describe('loginLimits', () => {
  it('keys the client and the pair by the client, the account by the name alone', () => {
    const a = loginLimits('Admin', '2001:db8:1:2::1', 64).map((l) => l.key);
    const b = loginLimits('admin', '2001:db8:1:2:aaaa::9', 64).map((l) => l.key);
    expect(a).toEqual(b);
    expect(a).toEqual(['ip:2001:db8:1:2::/64', 'u:admin', 'ua:admin@2001:db8:1:2::/64']);
    expect(loginLimits('admin', '2001:db8:1:3::1', 64).map((l) => l.key)).not.toContain('ua:admin@2001:db8:1:2::/64');
    expect(loginLimits('admin', '::ffff:10.0.0.1', 64).map((l) => l.key)).toEqual(['ip:10.0.0.1', 'u:admin', 'ua:admin@10.0.0.1']);
  });
});
