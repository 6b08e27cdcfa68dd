// The share of CPU time the hypervisor took from this virtual machine ("steal", /proc/stat) while
// a benchmark ran: on a shared host it slows every figure, and the figures are read with it.
import fs from 'node:fs';

function cpuTotals(): number[] | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith('cpu '));
    return line?.trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return undefined; // not Linux
  }
}

/** Starts counting; the function answers the steal percentage since then (undefined off Linux). */
export function stealSince(): () => number | undefined {
  const start = cpuTotals();
  return () => {
    const end = cpuTotals();
    if (!start || !end) return undefined;
    const delta = end.map((v, i) => v - (start[i] ?? 0));
    const total = delta.reduce((a, b) => a + b, 0);
    // Fields: user nice system idle iowait irq softirq steal …
    return total > 0 ? Math.round(((delta[7] ?? 0) / total) * 1000) / 10 : undefined;
  };
}
