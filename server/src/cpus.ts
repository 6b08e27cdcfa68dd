// How many cores this process may really use. os.availableParallelism() counts the host's cores (or
// the CPU affinity mask), not a container's CPU quota: in a container limited to 2 CPUs on a 32-core
// host it answers 32, and 32 workers would only share 2 CPUs' time. The quota lives in the cgroup
// files: cgroup v2 `cpu.max` ("200000 100000" = 2 CPUs, "max 100000" = no limit), or cgroup v1
// `cpu.cfs_quota_us` / `cpu.cfs_period_us` (-1 = no limit).
import fs from 'node:fs';
import os from 'node:os';

export type ReadText = (file: string) => string | undefined;

const readIfPresent: ReadText = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** CPUs the cgroup quota allows (rounded up), or undefined when there is no quota. */
export function cgroupCpuLimit(read: ReadText = readIfPresent): number | undefined {
  const v2 = read('/sys/fs/cgroup/cpu.max')?.trim().split(/\s+/);
  if (v2 && v2.length === 2) return quotaToCpus(Number(v2[0]), Number(v2[1]));
  const quota = read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us') ?? read('/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us');
  const period = read('/sys/fs/cgroup/cpu/cpu.cfs_period_us') ?? read('/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us');
  if (quota === undefined || period === undefined) return undefined;
  return quotaToCpus(Number(quota.trim()), Number(period.trim()));
}

function quotaToCpus(quota: number, period: number): number | undefined {
  // "max" parses as NaN; v1 writes -1 for no limit.
  if (!Number.isFinite(quota) || !Number.isFinite(period) || quota <= 0 || period <= 0) return undefined;
  return Math.max(1, Math.ceil(quota / period));
}

/** The cores this process may use: the host's (or its affinity mask's), capped by a cgroup quota. */
export function usableCpus(read: ReadText = readIfPresent, available = os.availableParallelism()): number {
  const limit = cgroupCpuLimit(read);
  return limit === undefined ? available : Math.min(available, limit);
}
