// Writes a brotli (.br) and a gzip (.gz) copy next to each text file of the build, so that the
// server sends them as they are (@fastify/static `preCompressed`) instead of compressing on every
// request or not at all. node:zlib does both: no extra dependency.
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this, compression saves too little to be worth a second file. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;

export function precompress(): Plugin {
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
