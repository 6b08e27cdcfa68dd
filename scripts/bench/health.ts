// What the server benchmarks that load one server share: latencies of a sample, /health asked
// while a load runs, and a JSON call as the screens make it.

export interface Latencies {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function latencies(ms: number[]): Latencies {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0) };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** /health every `everyMs` while `go()` holds (and for at most `ms`). */
export async function pollHealth(base: string, go: () => boolean, everyMs: number, ms = Infinity): Promise<Latencies> {
  const times: number[] = [];
  const until = performance.now() + ms;
  while (go() && performance.now() < until) {
    const t = performance.now();
    await (await fetch(`${base}/health`)).arrayBuffer();
    times.push(performance.now() - t);
    await sleep(everyMs);
  }
  return latencies(times);
}

/** A POST /Ajax/ call with the member's cookie; answers its data and the cookie (a login sets one). */
export async function call<T>(base: string, cookie: string, name: string, body: unknown): Promise<{ data: T; cookie: string }> {
  const res = await fetch(`${base}/Ajax/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
  const json = (await res.json()) as { data: T; msg: string };
  if (res.status !== 200) throw new Error(`${name}: ${res.status} ${json.msg}`);
  return { data: json.data, cookie: (res.headers.get('set-cookie') ?? cookie).split(';')[0]! };
}
