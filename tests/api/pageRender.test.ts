// The server's render of a member's page: ALLOWED_HOSTS never refuses the render's own calls.
// Needs the built app with its server render (`npm run build`).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Client, type TestServer } from '../helpers/server';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built app (`npm run build`); APP_DIST may name another build of it, as for the browser tests. */
const DIST = process.env.APP_DIST ? path.resolve(process.env.APP_DIST) : path.join(REPO, 'dist');

/** A row of the demo data that the video types' page shows first. */
const DEMO_ROW = '造价业务培训';

interface Load {
  status: number;
  rendered: boolean;
  ms: number;
  html: string;
}

async function load(server: TestServer, client: Client, pathName: string): Promise<Load> {
  const started = performance.now();
  const response = await fetch(server.url + pathName, { headers: { cookie: client.cookie } });
  const html = await response.text();
  return { status: response.status, rendered: html.includes('id="page-state"'), ms: performance.now() - started, html };
}

beforeAll(() => {
  if (!fs.existsSync(path.join(DIST, '.ssr', '.vite', 'manifest.json'))) {
    throw new Error(`The server render is not built (${DIST}/.ssr is missing): run \`npm run build\` first.`);
  }
});

describe('the server render with ALLOWED_HOSTS set', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it("sends a member's page rendered with its rows: the render's own calls are not refused", async () => {
    server = await startServer({ DEMO_DATA: '1', PUBLIC_DIR: DIST, ALLOWED_HOSTS: '127.0.0.1' });
    const admin = await server.admin();
    const page = await load(server, admin, '/videoType');
    expect(page.rendered).toBe(true);
    expect(page.html).toContain(DEMO_ROW);
  });
});
