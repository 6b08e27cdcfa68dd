// `virtual:write-validators`, the Vite plugin of both configs (vite.config.ts, vitest.config.ts):
// the write calls' body validators compiled from schemas/ at build time (schemas/validationCode.ts;
// the browser may not compile them itself under the app's Content-Security-Policy). JavaScript, so
// that the configs import it with its extension; the schemas are read through tsx, and again when
// one of their files changes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const ID = 'virtual:write-validators';
const RESOLVED = `\0${ID}`;

/** @returns {import('vite').Plugin} */
export function writeValidators() {
  let root = process.cwd();
  return {
    name: 'write-validators',
    configResolved(config) {
      root = config.root;
    },
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    async load(id) {
      if (id !== RESOLVED) return undefined;
      /** @type {Set<string>} */
      const read = new Set();
      /** @type {typeof import('../schemas/validationCode')} */
      const { writeValidatorsModule } = await tsImport(path.join(root, 'schemas/validationCode.ts'), {
        parentURL: import.meta.url,
        onImport: (url) => void (url.startsWith('file:') && read.add(fileURLToPath(url))),
      });
      for (const file of read) if (!file.includes(`${path.sep}node_modules${path.sep}`)) this.addWatchFile(file);
      return writeValidatorsModule(path.join(root, 'schemas/validation.ts'));
    },
  };
}
