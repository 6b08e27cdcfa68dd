import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { writeValidators } from './scripts/writeValidatorsPlugin.mjs';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this, compression saves too little to be worth a second file. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to each text file of the build, so that the
 * server sends them as they are (@fastify/static `preCompressed`) rather than uncompressed.
 * node:zlib does both: no extra dependency. (Here rather than in a module of its own: Vite's
 * future native config loader wants imports with file extensions, which tsconfig does not allow.)
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      await Promise.all(
        Object.keys(bundle)
          .filter((file) => COMPRESSIBLE.test(file))
          .map(async (file) => {
            const full = path.join(outDir, file);
            const data = await fs.readFile(full);
            if (data.length < MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
              gzip(data, { level: 9 }),
            ]);
            await Promise.all([fs.writeFile(`${full}.br`, br), fs.writeFile(`${full}.gz`, gz)]);
          }),
      );
    },
  };
}

/** Libraries loaded only by the part that needs them (a rich-text editor, the video player, uploads…). */
const HEAVY = /node_modules[\\/](@tiptap|prosemirror-[a-z-]+|ra-input-rich-text|video\.js|@videojs|m3u8-parser|mpd-parser|mux\.js|mp4box|@uppy|@dnd-kit|@tanstack[\\/](react-virtual|virtual-core)|dompurify)[\\/]/;

// The reference server owns these paths; in dev, Vite forwards them so the app keeps one origin
// (the session cookie is same-origin).
const SERVER = 'http://127.0.0.1:8080';
const SERVER_PATHS = ['/Ajax', '/Xcx1', '/Xcx3', '/files', '/upload-part', '/upload', '/docs'];

/** The server's render of the app (src/ssr/render.tsx): `vite build --ssr`, into dist/.ssr, never served. */
const serverRender = defineConfig({
  plugins: [react(), writeValidators()],
  // Every library inside the build: it runs wherever the app's build is put (PUBLIC_DIR), with no
  // node_modules beside it.
  ssr: { noExternal: true },
  build: {
    outDir: 'dist/.ssr',
    emptyOutDir: true,
    sourcemap: false,
    // The entry's name changes with its content and the manifest names it: a server running while
    // the app is rebuilt loads the new build under a new name (server/src/http/pages.ts).
    manifest: true,
    // .mjs: modules wherever the build is put, with or without a package.json saying so above it.
    rolldownOptions: { output: { entryFileNames: 'render-[hash].mjs', chunkFileNames: 'assets/[name]-[hash].mjs' } },
  },
});

const browserApp = defineConfig({
  plugins: [react(), writeValidators(), precompress()],
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
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What every page loads (the entry's static imports) in one file rather than dozens
            // of small ones that each screen's chunk also imports: fewer requests, better compression.
            { name: 'app', tags: ['$initial'], priority: 2 },
            // What screens and parts share (react-admin's list, MUI's table…): a file per set of
            // screens using it, small sets merged, rather than a file per module (a screen loaded
            // 16 to 33 files, a few hundred bytes each). The heavy libraries stay with their part.
            {
              name: 'shared',
              test: (id) => !HEAVY.test(id),
              minShareCount: 2,
              priority: 1,
              entriesAware: true,
              entriesAwareMergeThreshold: 16 * 1024,
            },
          ],
        },
        // Those files are named after every screen using them: a short name instead.
        chunkFileNames: (chunk) => (chunk.name.startsWith('shared~') ? 'assets/shared-[hash].js' : 'assets/[name]-[hash].js'),
      },
    },
  },
});

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? serverRender : browserApp));
