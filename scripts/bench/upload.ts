// Upload benchmark: the largest video the app accepts (just under 500 MB) through the `local`
// driver, measuring throughput and the server's memory, which must not grow with the file (the
// server streams uploads to disk; budget: less than 50 MB of growth).
//
// It uploads the way the video screen does (src/components/video/videoUpload.ts): Uppy's S3
// multipart mode, i.e. CreateMultipartUpload, then SignUploadPart + PUT of each part with four
// parts in flight, then CompleteMultipartUpload, which joins the parts on the server. For
// comparison it also sends the same file as one signed PUT (SignUpload), the path of handouts and
// images. Each path runs on a fresh server process with a fresh DATA_DIR.
//
// The file is made on the fly: a 1 MiB block with the MP4 signature for the start, then one random
// 1 MiB block repeated; nothing near 500 MB is held in the benchmark's memory either. The server's
// resident memory (VmRSS of the node process itself, not of a wrapper) is sampled every 100 ms.
//
// Run alone: npx tsx scripts/bench/upload.ts   (BENCH_UPLOAD_MB=100 for a shorter run)
// From another script: `const figures = await benchUpload(); printUploadFigures(figures);`
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mp4Bytes } from '../../tests/helpers/bytes';
import { rssMb, startServerProcess, type ServerProcess } from '../../tests/helpers/serverProcess';

const MiB = 1024 * 1024;
/** The video limit is "under 500MB" (500 × 2^20 bytes, exclusive): the largest accepted file. */
export const LARGEST_VIDEO = 500 * MiB - 1;
/** Budget of the performance issue: a 500 MB upload grows the server by less than 50 MB. */
export const RSS_GROWTH_BUDGET_MB = 50;
/** Parts in flight, as Uppy's `limit: 4` in videoUpload.ts. */
const PARTS_IN_FLIGHT = 4;
const CHUNK = MiB;
const PASSWORD = 'bench-upload-password';

export type UploadPath = 'multipart' | 'single PUT';

export interface UploadFigure {
  path: UploadPath;
  sizeBytes: number;
  parts: number;
  /** From the first call to the answer of the last (creation, every byte, joining, poster). */
  seconds: number;
  /** sizeBytes / seconds, in MB (2^20 bytes) per second. */
  mbPerSecond: number;
  /** Time of CompleteMultipartUpload alone (joining the parts on disk); 0 for a single PUT. */
  completeSeconds: number;
  /** Server RSS after a warm-up upload, just before the measured one. */
  rssBeforeMb: number;
  rssPeakMb: number;
  /** Server RSS one second after the upload finished. */
  rssAfterMb: number;
  /** rssPeakMb − rssBeforeMb. */
  growthMb: number;
  budgetMet: boolean;
}

/** The bytes of the file between two offsets, as chunks of at most 1 MiB that reuse two blocks. */
function* fileChunks(head: Buffer, block: Buffer, start: number, end: number): Generator<Buffer> {
  for (let offset = start; offset < end; ) {
    const index = Math.floor(offset / CHUNK);
    const within = offset % CHUNK;
    const length = Math.min(CHUNK - within, end - offset);
    yield (index === 0 ? head : block).subarray(within, within + length);
    offset += length;
  }
}

interface Answer<T> {
  status: number;
  body: { code: number; msg: string; data: T };
  headers: http.IncomingHttpHeaders;
}

/** One HTTP request; the body is written chunk by chunk, waiting for the socket when it is full. */
async function request<T>(
  url: string,
  method: string,
  headers: Record<string, string | number>,
  body?: Iterable<Buffer> | string,
): Promise<Answer<T>> {
  const req = http.request(url, { method, headers });
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  // An early answer (a refusal) ends the sending; its error surfaces when awaited below.
  let answered = false;
  response.then(
    () => (answered = true),
    () => (answered = true),
  );
  if (typeof body === 'string') req.write(body);
  else if (body) {
    for (const chunk of body) {
      if (answered) break;
      if (!req.write(chunk)) await Promise.race([once(req, 'drain'), response]);
    }
  }
  req.end();
  const res = await response;
  let text = '';
  for await (const data of res) text += (data as Buffer).toString();
  let parsed: Answer<T>['body'];
  try {
    parsed = JSON.parse(text) as Answer<T>['body'];
  } catch {
    parsed = { code: -1, msg: text, data: undefined as T };
  }
  return { status: res.statusCode ?? 0, body: parsed, headers: res.headers };
}

class Api {
  cookie = '';
  constructor(readonly base: string) {}

  async call<T>(name: string, payload: unknown): Promise<T> {
    const text = JSON.stringify(payload);
    const answer = await request<T>(`${this.base}/Ajax/${name}`, 'POST', {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...(this.cookie ? { cookie: this.cookie } : {}),
    }, text);
    if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${answer.body.msg}`);
    const setCookie = answer.headers['set-cookie']?.[0];
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    return answer.body.data;
  }
}

/** Samples a process's RSS every 100 ms until stopped; returns the highest value seen. */
function sampleRss(pid: number) {
  let peak = rssMb(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid) ?? 0);
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMb(pid) ?? 0);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Created {
  UploadId: string;
  Key: string;
  FileUrl: string;
  PartSize: number;
}

/** The video screen's upload: parts of the server's size, four in flight, then completion. */
async function uploadInParts(api: Api, size: number, head: Buffer, block: Buffer): Promise<{ key: string; parts: number; completeSeconds: number }> {
  const up = await api.call<Created>('CreateMultipartUpload', { FileName: 'bench.mp4', Size: size, Kind: 'video', ContentType: 'video/mp4' });
  const count = Math.ceil(size / up.PartSize);
  const etags: string[] = [];
  let next = 1;
  const worker = async () => {
    while (next <= count) {
      const n = next++;
      const signed = await api.call<{ Url: string; Headers: Record<string, string> }>('SignUploadPart', {
        Key: up.Key,
        UploadId: up.UploadId,
        PartNumber: n,
      });
      const start = (n - 1) * up.PartSize;
      const end = Math.min(size, start + up.PartSize);
      const url = signed.Url.startsWith('/') ? api.base + signed.Url : signed.Url;
      const res = await request(url, 'PUT', { ...signed.Headers, 'content-length': end - start }, fileChunks(head, block, start, end));
      if (res.status !== 200 || typeof res.headers.etag !== 'string') throw new Error(`part ${n}: ${res.status} ${res.body.msg}`);
      etags[n - 1] = res.headers.etag;
    }
  };
  await Promise.all(Array.from({ length: PARTS_IN_FLIGHT }, worker));
  const t = performance.now();
  await api.call('CompleteMultipartUpload', {
    Key: up.Key,
    UploadId: up.UploadId,
    Parts: etags.map((ETag, i) => ({ PartNumber: i + 1, ETag })),
  });
  return { key: up.Key, parts: count, completeSeconds: (performance.now() - t) / 1000 };
}

/** One signed PUT of the whole file (SignUpload), as handouts and images are sent. */
async function uploadWhole(api: Api, size: number, head: Buffer, block: Buffer): Promise<{ key: string; parts: number; completeSeconds: number }> {
  const signed = await api.call<{ Url: string; Headers: Record<string, string>; FileUrl: string }>('SignUpload', {
    FileName: 'bench.mp4',
    Size: size,
    Kind: 'video',
    ContentType: 'video/mp4',
  });
  const res = await request(api.base + signed.Url, 'PUT', { ...signed.Headers, 'content-length': size }, fileChunks(head, block, 0, size));
  if (res.status !== 200) throw new Error(`PUT: ${res.status} ${res.body.msg}`);
  return { key: signed.FileUrl.replace(/^\/files\//, ''), parts: 1, completeSeconds: 0 };
}

async function measure(uploadPath: UploadPath, size: number): Promise<UploadFigure> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-bench-upload-'));
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess({ DATA_DIR: dataDir, PUBLIC_DIR: path.join(dataDir, 'no-public'), ADMIN_PASSWORD: PASSWORD }, 180_000, { built: true });
    const api = new Api(server.url);
    await api.call('Login', { UserName: 'admin', Password: PASSWORD });
    const head = mp4Bytes(CHUNK);
    const block = randomBytes(CHUNK);
    const send = uploadPath === 'multipart' ? uploadInParts : uploadWhole;

    // Warm-up: the first upload loads code paths and opens files; growth is measured after it.
    await send(api, 3 * MiB, head, block);
    await sleep(1000);
    const rssBeforeMb = rssMb(server.pid) ?? 0;

    const sampler = sampleRss(server.pid);
    const t0 = performance.now();
    const { key, parts, completeSeconds } = await send(api, size, head, block);
    const seconds = (performance.now() - t0) / 1000;
    await sleep(1000);
    const rssPeakMb = sampler.stop();
    const rssAfterMb = rssMb(server.pid) ?? 0;

    // The file must really be stored, whole.
    const stored = fs.statSync(path.join(dataDir, 'uploads', ...key.split('/')));
    if (stored.size !== size) throw new Error(`stored ${stored.size} bytes, expected ${size}`);

    const growthMb = rssPeakMb - rssBeforeMb;
    return {
      path: uploadPath,
      sizeBytes: size,
      parts,
      seconds,
      mbPerSecond: size / MiB / seconds,
      completeSeconds,
      rssBeforeMb,
      rssPeakMb,
      rssAfterMb,
      growthMb,
      budgetMet: growthMb < RSS_GROWTH_BUDGET_MB,
    };
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Uploads a file of `sizeBytes` (default: the largest video accepted) on each path; one figure per path. */
export async function benchUpload(
  options: { sizeBytes?: number; paths?: UploadPath[] } = {},
): Promise<UploadFigure[]> {
  const size = options.sizeBytes ?? LARGEST_VIDEO;
  // The server as `npm start` runs it, compiled to JavaScript.
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  const figures: UploadFigure[] = [];
  for (const p of options.paths ?? (['multipart', 'single PUT'] as const)) figures.push(await measure(p, size));
  return figures;
}

export function printUploadFigures(figures: UploadFigure[]): void {
  const r = (n: number) => n.toFixed(1);
  console.log('\n| upload (local driver) | size MB | parts | s | MB/s | joining s | RSS before MB | RSS peak MB | RSS after MB | growth MB |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const f of figures) {
    console.log(
      `| ${f.path} | ${r(f.sizeBytes / MiB)} | ${f.parts} | ${r(f.seconds)} | ${r(f.mbPerSecond)} | ${r(f.completeSeconds)} | ${r(f.rssBeforeMb)} | ${r(f.rssPeakMb)} | ${r(f.rssAfterMb)} | ${r(f.growthMb)} |`,
    );
  }
  console.log('\nBudget (upload):');
  for (const f of figures) {
    console.log(`  ${f.budgetMet ? 'MET    ' : 'NOT MET'}  ${f.path}: server memory grows < ${RSS_GROWTH_BUDGET_MB} MB for a ${r(f.sizeBytes / MiB)} MB upload: ${r(f.growthMb)} MB`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const mb = Number(process.env.BENCH_UPLOAD_MB ?? 0);
  const figures = await benchUpload(mb > 0 ? { sizeBytes: Math.min(mb * MiB, LARGEST_VIDEO) } : {});
  printUploadFigures(figures);
  if (!figures.every((f) => f.budgetMet)) process.exitCode = 1;
}
