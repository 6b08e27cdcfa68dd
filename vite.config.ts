import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin, type ResolveModulePreloadDependenciesFn } from 'vite';
import react from '@vitejs/plugin-react';

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
    // The server's render (the SSR build) is read from disk by the server, never sent.
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
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

/**
 * The app's code (src/start.tsx and what it imports statically), which the small entry
 * (src/main.tsx) imports dynamically: preload links for it in index.html, so that the files
 * download with the page instead of after the entry has run (Vite preloads only the entry's static
 * imports). They are marked, because a page the server renders goes without them
 * (server/src/http/pages.ts): it loads the app after its first paint, and the page's own bytes
 * should not share the network with 1 MB of code.
 */
function appCode(appModule: string) {
  /** File names of the app's chunk and its static imports. */
  let files = new Set<string>();
  let base = '/';
  let serverBuild = false;
  const plugin: Plugin = {
    name: 'app-code',
    apply: 'build',
    configResolved(config) {
      base = config.base;
      serverBuild = Boolean(config.build.ssr);
    },
    // Before Vite's own generateBundle, which writes index.html (transformIndexHtml below).
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        if (serverBuild) return;
        const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
        const app = [...chunks.values()].find((c) => c.facadeModuleId?.endsWith(appModule));
        if (!app) throw new Error(`app-code: no chunk for ${appModule}`);
        files = new Set();
        const visit = (file: string) => {
          if (files.has(file)) return;
          files.add(file);
          for (const imported of chunks.get(file)?.imports ?? []) visit(imported);
        };
        visit(app.fileName);
      },
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { chunk: entry }) {
        if (!entry) return html;
        // Less what the entry's own tags already load.
        const loaded = new Set([entry.fileName, ...entry.imports]);
        const links = [...files].filter((file) => !loaded.has(file)).map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`);
        return html.replace('</head>', () => `  <!--app-preload-->${links.join('')}<!--/app-preload-->\n  </head>`);
      },
    },
  };
  return plugin;
}

/**
 * Code imported on demand (a screen, a dialog, the tree) comes without preload links. Vite's helper
 * would insert a `<link rel=modulepreload>` per file of the chunk as the import runs, and each
 * insertion holds the main thread (about 2.5 ms with a phone's 4× slower CPU): on a rendered page,
 * 11 to 24 links for the screen in the takeover's tasks, then more for its dialogs. The browser
 * finds the same files through the chunk's own imports, a round trip per level of imports later.
 * Lighthouse mobile, interleaved runs, medians of 3 (docs/performance.md says how to run it): with
 * the links 文章目录 83, 文章目录管理 84, 成员管理 91; without 93, 92, 94. Stylesheets keep theirs:
 * the helper is what loads a chunk's CSS (the video player's).
 */
const stylesheetsOnly: ResolveModulePreloadDependenciesFn = (_filename, deps, { hostType }) =>
  hostType === 'js' ? deps.filter((dep) => dep.endsWith('.css')) : deps;

const appPreloads = appCode('/src/start.tsx');

// The reference server owns these paths; in dev, Vite forwards them so the app keeps one origin
// (the session cookie is same-origin).
const SERVER = 'http://127.0.0.1:8080';
const SERVER_PATHS = ['/Ajax', '/Xcx1', '/Xcx3', '/files', '/upload-part', '/upload', '/docs'];

/**
 * Two builds (`npm run build`): the app for the browser into dist/, and the server's render of its
 * pages (`--ssr src/ssr/render.tsx`, see src/ssr) into dist/.ssr/, one file with every library in
 * it: one copy of React, MUI and emotion, as in the browser (Node resolving react-admin's CommonJS
 * next to MUI's ES modules could load two MUIs with two theme contexts). The server refuses to
 * serve dist/.ssr/ (server/src/app.ts).
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), precompress(), appPreloads],
  server: {
    proxy: Object.fromEntries(SERVER_PATHS.map((p) => [p, { target: SERVER, changeOrigin: false }])),
  },
  ssr: { noExternal: true, target: 'node' },
  // The server's render runs React, MUI and emotion in their production builds, as the browser
  // does: emotion's development class names (with component labels) would differ from the
  // browser's, and development React is several times slower. SSR_DEV=1 keeps development builds,
  // to pair with a development build of the app when looking for a hydration mismatch (README).
  define: isSsrBuild && !process.env.SSR_DEV ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: isSsrBuild
    ? {
        outDir: 'dist/.ssr',
        emptyOutDir: true,
        sourcemap: false,
        // .mjs: an ES module wherever the folder is copied (no package.json "type" needed).
        rolldownOptions: { output: { codeSplitting: false, entryFileNames: 'render.mjs' } },
      }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        sourcemap: false,
        // .vite/manifest.json: which files each screen loads (npm run bench:ui reads it).
        manifest: true,
        modulePreload: { resolveDependencies: stylesheetsOnly },
        chunkSizeWarningLimit: 1500,
      },
}));
