// Folders the server reads beside its code. Resolved from this module, which sits one level below
// server/ both as source (server/src/) and compiled (server/dist/server.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The demo video, its poster and the other start-up media (server/demo/). */
export const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../demo');
