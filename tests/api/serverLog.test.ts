// The server's log, as an operator reads it in the terminal of `npm start`: by default no line per
// request, warnings and errors always; with LOG=1 one short line per request. Two workers write
// to one terminal: every line arrives whole, even long ones written by both at the same moment.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess';

const started: ServerProcess[] = [];
const dataDirs: string[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-log-'));
  dataDirs.push(dataDir);
  const server = await startServerProcess({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'log-admin-pass', PUBLIC_DIR: path.join(dataDir, 'no-public'), ...env });
  started.push(server);
  return server;
}

/** The lines written after the address line, once the server has stopped (all of them flushed). */
async function linesAfterStart(server: ServerProcess): Promise<string[]> {
  await server.stop();
  const out = server.stdout();
  const after = out.slice(out.indexOf('\n', out.indexOf('知识学习后台: ')) + 1);
  return after.split('\n').filter((line) => line.trim() !== '');
}

const STAMP = String.raw`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`;
const REQUEST_LINE = new RegExp(`^${STAMP} (GET|POST) /\\S{0,200} \\d{3} \\d+ ms$`);
const WARNING_LINE = new RegExp(`^${STAMP} (WARN|ERROR) \\S.{0,400}$`);
/** A write refused for its Origin header: a warning that logs that header. */
const crossOriginWrite = (url: string, origin: string) =>
  fetch(`${url}/Ajax/Login`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' });

describe('the server log', () => {
  it('by default has no line per request, and warnings as one readable line each', async () => {
    const server = await start({ LOG: '' });
    for (let i = 0; i < 20; i++) expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await crossOriginWrite(server.url, 'http://elsewhere.example')).status).toBe(403);
    const lines = await linesAfterStart(server);
    expect(lines.filter((line) => line.includes('/health')), lines.join('\n')).toEqual([]);
    const warnings = lines.filter((line) => WARNING_LINE.test(line));
    expect(warnings.some((line) => line.includes('cross-origin write refused') && line.includes('elsewhere.example')), lines.join('\n')).toBe(true);
  });

  it('with LOG=1 has one short line per request, and whole lines from two workers at once', async () => {
    const server = await start({ LOG: '1', WORKERS: '2' });
    const longOrigin = `http://${'x'.repeat(6000)}.example`;
    const calls: Promise<Response>[] = [];
    for (let i = 0; i < 300; i++) {
      // Fresh connections, so that both workers answer and write at the same time.
      calls.push(i % 3 === 0 ? crossOriginWrite(server.url, longOrigin) : fetch(`${server.url}/health?n=${i}`, { headers: { connection: 'close' } }));
    }
    const answers = await Promise.all(calls);
    expect(answers.filter((answer) => answer.status === 403)).toHaveLength(100);
    const lines = await linesAfterStart(server);
    const requests = lines.filter((line) => REQUEST_LINE.test(line));
    for (let i = 0; i < 300; i++) {
      if (i % 3 === 0) continue;
      expect(requests.filter((line) => line.includes(`/health?n=${i} `)), `request ${i}:\n${lines.slice(0, 20).join('\n')}`).toHaveLength(1);
    }
    expect(requests.filter((line) => line.includes('POST /Ajax/Login 403 '))).toHaveLength(100);
    // Whatever else is there is whole: a warning, or the worker's own start-up line.
    const other = lines.filter((line) => !REQUEST_LINE.test(line) && !WARNING_LINE.test(line) && !/^\S.* Server listening at http:\S+$/.test(line));
    expect(other.slice(0, 5), `${other.length} lines that are neither`).toEqual([]);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(500);
  });
});
