// `npm start` runs the server compiled to one JavaScript file (scripts/build-server.mjs): it must
// start, find its demo media beside it, and answer as the sources do, its worker threads included.
// Serves the built app (`npm run build`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireServerRender } from '../helpers/builtApp';
import { Client } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess';

let server: ServerProcess | undefined;
let dataDir: string;

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhishi-built-'));
  const publicDir = requireServerRender();
  server = await startServerProcess({ DATA_DIR: dataDir, DEMO_DATA: '1', ADMIN_PASSWORD: 'built-admin-pass', PUBLIC_DIR: publicDir, RENDER_BUDGET_MS: '60000' }, 120_000, {
    built: true,
  });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the compiled server of npm start', () => {
  it('loads the demo data with its media and answers the calls', async () => {
    const client = new Client(server!.url);
    await client.login('admin', 'built-admin-pass');
    const videos = await client.get<{ VdUrl: string }[]>('/Ajax/GetVideoListInAdmin', { pageIndex: 1, pageSize: 15 });
    expect(videos.status).toBe(200);
    expect(videos.body.total).toBeGreaterThan(0);
    const video = await fetch(server!.url + videos.body.data[0]!.VdUrl, { headers: { range: 'bytes=0-15', cookie: client.cookie } });
    expect(video.status).toBe(206);
    expect(Buffer.from(await video.arrayBuffer()).subarray(4, 8).toString()).toBe('ftyp');
    // The poster made at start-up from the committed demo poster (server/demo/).
    expect(fs.existsSync(path.join(dataDir, 'uploads', 'demo', 'demo.poster.jpg'))).toBe(true);
  });

  it('sanitises rich text in its worker (server/dist/richTextWorker.mjs)', async () => {
    const client = new Client(server!.url);
    await client.login('admin', 'built-admin-pass');
    const videos = await client.get<{ VdCode: string }[]>('/Ajax/GetVideoListInAdmin', { pageIndex: 1, pageSize: 1 });
    const VdCode = videos.body.data[0]!.VdCode;
    const comment = await client.call<{ VmDes: string }>('/Ajax/AddVideoMessage', { VdCode, VmDes: '<p onclick="x()">好<script>alert(1)</script></p>' });
    expect(comment.status, comment.body.msg).toBe(200);
    expect(comment.body.data.VmDes).toBe('<p>好</p>');
    const nested = await client.call('/Ajax/AddVideoMessage', { VdCode, VmDes: '<b>'.repeat(5000) });
    expect(nested.status).toBe(400);
    expect(nested.body.msg).toBe('内容嵌套层数过多，最多100层');
  });

  it("renders a member's page in its worker (server/dist/renderWorker.mjs)", async () => {
    const client = new Client(server!.url);
    await client.login('admin', 'built-admin-pass');
    const html = await (await fetch(`${server!.url}/videoType`, { headers: { cookie: client.cookie } })).text();
    expect(html).toContain('id="page-state"');
    expect(html).toContain('造价业务培训');
  });
});
