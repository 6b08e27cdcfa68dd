// The validators of the write calls' bodies as code, for the add/edit dialog. The server compiles
// its schemas with Ajv when it starts; a browser cannot, as Ajv's compiler makes functions out of
// text and the app's Content-Security-Policy allows no 'unsafe-eval' (server/src/plugins/security.ts).
// So the same schemas (./validation.ts writeBodySchema, CALL_BODIES) are compiled here at build time
// with the server's options and keywords, by Ajv's standalone code generation, into one ES module:
// vite.config.ts serves it as `virtual:write-validators` to src/components/formValidation.ts. Only
// the build loads this file.
import Ajv, { _, Name, type KeywordCxt } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import addFormats from 'ajv-formats';
import { RESOURCES } from './index';
import { CALL_BODIES, DAY_RANGE, DAY_RANGE_KEYWORDS, REQUEST_AJV_OPTIONS, writeBodySchema, writeCallKey, type WriteKind } from './validation';

/** Every body a screen may send to a write call, by call (`Ajax/AddVideoType`). */
export function writeBodies(): Map<string, object> {
  const bodies = new Map<string, object>();
  for (const descriptor of RESOURCES) {
    for (const kind of ['create', 'update'] as WriteKind[]) {
      const key = writeCallKey(descriptor, kind);
      if (key !== undefined) bodies.set(key, writeBodySchema(descriptor, kind));
    }
  }
  for (const [key, schema] of Object.entries(CALL_BODIES)) bodies.set(key, schema);
  return bodies;
}

/** Names the generated code uses for what the module imports. */
const FORMATS = new Name('formats');
const DAY_RANGE_NAME = new Name('DAY_RANGE');

/**
 * The ES module of the validators: `WRITE_VALIDATORS`, a validate function per call. Compiled
 * with the server's Ajv options, ajv-formats' formats (Fastify adds them) and the date range
 * calling `DAY_RANGE` of `validationModule` (the path of ./validation.ts), as the server does.
 */
export function writeValidatorsModule(validationModule: string): string {
  const ajv = new Ajv({ ...REQUEST_AJV_OPTIONS, code: { source: true, esm: true, formats: _`${FORMATS}` } });
  addFormats(ajv);
  // The same comparison as the server's keyword (addDayRangeKeywords), written as a call to it:
  // a keyword given as a function has no code to write out.
  for (const keyword of DAY_RANGE_KEYWORDS) {
    ajv.removeKeyword(keyword);
    ajv.addKeyword({
      keyword,
      type: 'string',
      schemaType: 'string',
      code(cxt: KeywordCxt) {
        const within = cxt.gen.scopeValue('func', { ref: DAY_RANGE[keyword], code: _`${DAY_RANGE_NAME}[${keyword}]` });
        cxt.fail(_`!${within}(${cxt.schemaCode}, ${cxt.data})`);
      },
    });
  }

  const exportsByKey = new Map<string, string>();
  [...writeBodies()].forEach(([key, schema], index) => {
    ajv.addSchema(schema, key);
    exportsByKey.set(key, `call${index}`);
  });
  const code = standaloneCode(ajv, Object.fromEntries([...exportsByKey].map(([key, name]) => [name, key])));

  // Ajv's code requires the default export of its runtime helpers (CommonJS: the length in
  // characters); an ES module imports them. Vite's build, its dev server and Vitest wrap a CommonJS
  // module's exports differently (`default` is the helper, or the exports holding it): the helper is
  // the first function down the `default`s.
  const required = [...new Set([...code.matchAll(/require\(("[^"]+")\)\.default/g)].map((m) => m[1]!))];
  const body = required.reduce((text, specifier, i) => text.split(`require(${specifier}).default`).join(`runtime${i}`), code);
  if (body.includes('require(')) throw new Error('validationCode: Ajv\'s code requires a module in an unknown way');
  return [
    `import { fullFormats as ${FORMATS.str} } from "ajv-formats/dist/formats";`,
    `import { DAY_RANGE as ${DAY_RANGE_NAME.str} } from ${JSON.stringify(validationModule)};`,
    ...required.map((specifier, i) => `import * as runtimeModule${i} from ${specifier};`),
    'function helperOf(m) { while (m && typeof m !== "function" && "default" in m) m = m.default; return m; }',
    ...required.map((_specifier, i) => `const runtime${i} = helperOf(runtimeModule${i});`),
    body,
    `export const WRITE_VALIDATORS = {${[...exportsByKey].map(([key, name]) => `${JSON.stringify(key)}: ${name}`).join(', ')}};`,
  ].join('\n');
}
