// A body that trickles in is cut: anonymous clients sending /Ajax/Login one byte at a time once
// kept their connections open for more than five minutes. Calls have BODY_TIMEOUT seconds (1 here),
// uploads a minimum average rate over their declared length.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyDeadlineMs } from '../../server/src/plugins/timeouts';
import { loadConfig } from '../../server/src/config';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ BODY_TIMEOUT: '1' });
});
afterAll(() => server?.close());

interface Trickle {
  /** What the server sent before it closed the connection, or at the end of the wait. */
  answer: Promise<{ text: string; closedAfterMs: number | undefined }>;
  stop(): void;
}

/**
 * Sends a login whose body arrives `bytes` at a time every `everyMs`; the answer resolves when the
 * server closes, or after `waitMs`.
 */
function trickleLogin(everyMs: number, waitMs: number, bytes = 1): Trickle {
  const body = JSON.stringify({ UserName: 'admin', Password: 'not the password, sent slowly' });
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  const started = Date.now();
  let sent = 0;
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  socket.on('error', () => undefined);
  socket.write(`POST /Ajax/Login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
  const drip = setInterval(() => {
    if (sent < body.length && !socket.destroyed) {
      socket.write(body.slice(sent, sent + bytes));
      sent += bytes;
    }
  }, everyMs);
  const answer = new Promise<{ text: string; closedAfterMs: number | undefined }>((resolve) => {
    const give = setTimeout(() => resolve({ text, closedAfterMs: undefined }), waitMs);
    socket.on('close', () => {
      clearTimeout(give);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
  });
  return {
    answer,
    stop() {
      clearInterval(drip);
      socket.destroy();
    },
  };
}

describe('request bodies that trickle in', () => {
  it('are answered 408 in Chinese and their connections closed, fifty at once, within the deadline', async () => {
    const slow = Array.from({ length: 50 }, () => trickleLogin(200, 8000));
    try {
      const answers = await Promise.all(slow.map((t) => t.answer));
      for (const { text, closedAfterMs } of answers) {
        expect(closedAfterMs, 'connection still open').toBeDefined();
        // One second of deadline, plus the time two cores take to get to the timer.
        expect(closedAfterMs!).toBeLessThan(6000);
        expect(text).toMatch(/^HTTP\/1\.1 408/);
        expect(text).toContain('请求超时');
        // Answered outside Fastify's flow, still with the security headers every answer carries.
        expect(text.toLowerCase()).toContain('x-content-type-options: nosniff');
      }
    } finally {
      for (const t of slow) t.stop();
    }
    // The server still answers, and the slow logins counted no failure against admin.
    expect((await server.client().call('/Ajax/Login', { UserName: 'admin', Password: 'admin-test-password' })).status).toBe(200);
  });

  it('let a body that arrives in time through', async () => {
    // In a few pieces, well inside the second: a busy host's timers may fire late.
    const quick = trickleLogin(20, 3000, 12);
    try {
      const { text } = await quick.answer;
      expect(text).toMatch(/^HTTP\/1\.1 401/);
    } finally {
      quick.stop();
    }
  });
});

describe('deadlines', () => {
  const config = loadConfig({});
  it('give calls 30 s by default and uploads a minute plus their length at 32 KiB/s', () => {
    expect(config.bodyTimeoutMs).toBe(30_000);
    expect(bodyDeadlineMs('/Ajax/Login', { 'content-length': '100' }, config)).toBe(30_000);
    expect(bodyDeadlineMs('/Ajax/GetVideoListInAdmin', {}, config)).toBeUndefined();
    // A 10 MiB part: 60 s + 320 s.
    expect(bodyDeadlineMs('/upload-part/u/1?sig=x', { 'content-length': String(10 * 1024 * 1024) }, config)).toBe(380_000);
    expect(bodyDeadlineMs('/upload/handout/2026/11/a.pdf', { 'content-length': String(200 * 1024 * 1024) }, config)).toBe(60_000 + 6_400_000);
    expect(bodyDeadlineMs('/upload/x', { 'transfer-encoding': 'chunked' }, config)).toBe(30_000);
  });

  it('fail at start when malformed', () => {
    for (const bad of ['0', '-1', 'soon', '1.5']) expect(() => loadConfig({ BODY_TIMEOUT: bad }), bad).toThrow(/BODY_TIMEOUT/);
    expect(() => loadConfig({ UPLOAD_MIN_RATE: '0' })).toThrow(/UPLOAD_MIN_RATE/);
  });
});
