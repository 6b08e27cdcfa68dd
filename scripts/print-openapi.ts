// npm run openapi [-- --yaml]: prints the OpenAPI document the server serves at /docs/json
// (/docs/yaml with --yaml), without listening on a port. The document is built from the same
// schemas as the server's routes, so it is the server's own description of its calls.
//
// The app is built on a throwaway data folder (an empty SQLite file, local storage, no demo data)
// and removed afterwards: printing the document never touches a real database.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';

const yaml = process.argv.includes('--yaml');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'zhishi-openapi-'));
try {
  const config = loadConfig({ DATA_DIR: dataDir, DEMO_DATA: '0', LOG: '0', ADMIN_PASSWORD: 'openapi-only' });
  const { app } = await buildApp(config);
  await app.ready();
  process.stdout.write(yaml ? app.swagger({ yaml: true }) : `${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
