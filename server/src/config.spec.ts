// The variables of a scaled-out deployment: a wrong value fails at start, not at first use.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { usableCpus } from './cpus';

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

describe('LOGIN_IPV6_PREFIX', () => {
  it('is 64 by default and a whole number from 32 to 128', () => {
    expect(loadConfig({}).loginIpv6Prefix).toBe(64);
    expect(loadConfig({ LOGIN_IPV6_PREFIX: '48' }).loginIpv6Prefix).toBe(48);
    expect(loadConfig({ LOGIN_IPV6_PREFIX: '128' }).loginIpv6Prefix).toBe(128);
    for (const bad of ['0', '31', '129', '/64', '64.5', 'sixty-four']) {
      expect(() => loadConfig({ LOGIN_IPV6_PREFIX: bad }), bad).toThrow(/LOGIN_IPV6_PREFIX must be a whole number from 32 to 128/);
    }
  });
});

describe('LIST_MAX_BYTES', () => {
  it('is 4 MiB by default and a whole number of bytes from 16 KiB to 1 GiB', () => {
    expect(loadConfig({}).listMaxBytes).toBe(4 * 1024 * 1024);
    expect(loadConfig({ LIST_MAX_BYTES: '32768' }).listMaxBytes).toBe(32768);
    for (const bad of ['0', '16383', '4.5', '4MB', String(1024 ** 3 + 1)]) {
      expect(() => loadConfig({ LIST_MAX_BYTES: bad }), bad).toThrow(/LIST_MAX_BYTES/);
    }
  });
});

describe('WORKERS', () => {
  it('is one process per core by default, and a whole number from 1 to 256', () => {
    expect(loadConfig({}).workers).toBe(usableCpus());
    expect(usableCpus()).toBeLessThanOrEqual(os.availableParallelism());
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    for (const bad of ['0', '-2', '1.5', 'auto', '257']) {
      expect(() => loadConfig({ WORKERS: bad }), bad).toThrow(/WORKERS must be a whole number from 1 to 256/);
    }
  });

  it('leaves the start-up work and the removal of stale uploads to this process (cluster.ts hands them out)', () => {
    const config = loadConfig({ WORKERS: '4' });
    expect(config.startupWork).toBe(true);
    expect(config.housekeeping).toBe(true);
  });
});

describe('RENDER_PER_MEMBER and RENDER_BUDGET_MS', () => {
  it('render two pages at once per member within a second by default', () => {
    expect(loadConfig({}).renderPerMember).toBe(2);
    expect(loadConfig({}).renderBudgetMs).toBe(1000);
    expect(loadConfig({ RENDER_PER_MEMBER: '0' }).renderPerMember).toBe(0);
    expect(loadConfig({ RENDER_BUDGET_MS: '250' }).renderBudgetMs).toBe(250);
  });

  it('fail at start on anything but a whole number in range', () => {
    for (const bad of ['-1', '1.5', 'two', '101']) {
      expect(() => loadConfig({ RENDER_PER_MEMBER: bad }), bad).toThrow(/RENDER_PER_MEMBER must be a whole number from 0 to 100/);
    }
    for (const bad of ['0', '1s', '60001']) {
      expect(() => loadConfig({ RENDER_BUDGET_MS: bad }), bad).toThrow(/RENDER_BUDGET_MS must be a whole number from 1 to 60000/);
    }
  });
});

describe('RICH_TEXT_QUEUE_PER_MEMBER and RICH_TEXT_QUEUE_TOTAL', () => {
  it("are 1,000,000 and 8,000,000 characters by default, whole numbers, a member's share no more than the total", () => {
    expect(loadConfig({})).toMatchObject({ richTextQueuePerMember: 1_000_000, richTextQueueTotal: 8_000_000 });
    expect(loadConfig({ RICH_TEXT_QUEUE_PER_MEMBER: '300000', RICH_TEXT_QUEUE_TOTAL: '900000' })).toMatchObject({
      richTextQueuePerMember: 300_000,
      richTextQueueTotal: 900_000,
    });
    // A total under the default share lowers the share with it.
    expect(loadConfig({ RICH_TEXT_QUEUE_TOTAL: '400000' })).toMatchObject({ richTextQueuePerMember: 400_000, richTextQueueTotal: 400_000 });
    for (const bad of ['0', '-1', '2.5', 'many']) {
      expect(() => loadConfig({ RICH_TEXT_QUEUE_TOTAL: bad }), bad).toThrow(/RICH_TEXT_QUEUE_TOTAL must be a whole number/);
      expect(() => loadConfig({ RICH_TEXT_QUEUE_PER_MEMBER: bad }), bad).toThrow(/RICH_TEXT_QUEUE_PER_MEMBER must be a whole number/);
    }
    expect(() => loadConfig({ RICH_TEXT_QUEUE_PER_MEMBER: '8000001' })).toThrow(/RICH_TEXT_QUEUE_PER_MEMBER must be a whole number from 1 to 8000000/);
  });
});
