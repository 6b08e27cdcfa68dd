import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vite-precompress';

// The reference server owns these paths; in dev, Vite forwards them so the app keeps one origin
// (the session cookie is same-origin).
const SERVER = 'http://127.0.0.1:8080';
const SERVER_PATHS = ['/Ajax', '/Xcx1', '/Xcx3', '/files', '/upload-part', '/upload', '/docs'];

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    proxy: Object.fromEntries(SERVER_PATHS.map((p) => [p, { target: SERVER, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // .vite/manifest.json: which files each screen loads (npm run bench:ui reads it).
    manifest: true,
    chunkSizeWarningLimit: 1500,
  },
});
