import { describe, expect, it } from 'vitest';
import { cgroupCpuLimit, usableCpus, type ReadText } from './cpus';

const files =
  (entries: Record<string, string>): ReadText =>
  (file) =>
    entries[file];

describe('usableCpus', () => {
  it('takes a cgroup v2 quota, rounded up', () => {
    expect(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu.max': '200000 100000\n' }))).toBe(2);
    expect(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' }))).toBe(2);
    expect(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu.max': '50000 100000\n' }))).toBe(1);
    expect(usableCpus(files({ '/sys/fs/cgroup/cpu.max': '300000 100000' }), 32)).toBe(3);
  });

  it('takes a cgroup v1 quota', () => {
    const v1 = files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '400000\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' });
    expect(usableCpus(v1, 16)).toBe(4);
  });

  it('keeps the host count when there is no quota, or the quota is above it', () => {
    expect(usableCpus(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' }), 8)).toBe(8);
    expect(usableCpus(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000' }), 8)).toBe(8);
    expect(usableCpus(files({}), 6)).toBe(6);
    expect(usableCpus(files({ '/sys/fs/cgroup/cpu.max': '1600000 100000' }), 8)).toBe(8);
  });
});
