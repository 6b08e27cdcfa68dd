// The variables of a scaled-out deployment: a wrong value fails at start, not at first use.
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('TRUST_PROXY', () => {
  it('trusts no proxy unless told', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
  });

  it('reads a hop count, with true as the one balancer in front (never "every sender")', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
  });

  it('passes addresses and ranges through, and refuses anything else', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toBe('10.0.0.0/8, loopback');
    expect(loadConfig({ TRUST_PROXY: 'fd00::/8' }).trustProxy).toBe('fd00::/8');
    expect(() => loadConfig({ TRUST_PROXY: 'balancer.example.com;rm' })).toThrow(/TRUST_PROXY/);
  });
});

describe('DATABASE_POOL_SIZE', () => {
  it('is 10 by default and a whole number from 1 to 1000', () => {
    expect(loadConfig({}).poolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '4' }).poolSize).toBe(4);
    for (const bad of ['0', '-1', '2.5', 'ten', '1001']) {
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad }), bad).toThrow(/DATABASE_POOL_SIZE/);
    }
  });
});
