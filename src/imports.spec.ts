// The app's modules depend downwards only, without cycles, and the server depends on none of them:
// a change low down (an HTTP helper) cannot pull a screen into every bundle, and the server never
// compiles the app's code.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Each folder (or file) of src/ and its layer: a module imports from its own layer or lower ones. */
const LAYERS: [RegExp, number, string][] = [
  [/^src\/(util|http|i18n)\/|^src\/(theme|navigation)\.tsx?$/, 0, 'helpers'],
  [/^src\/(dataProvider|authProvider|access)\//, 1, 'providers and access'],
  [/^src\/components\//, 2, 'components'],
  [/^src\/layout\//, 3, 'layout'],
  [/^src\/resources\//, 4, 'screens'],
  [/^src\/(providers|screens|App|main)\.tsx?$|^src\/(ssr|start)\//, 5, 'the app'],
  [/^src\/test\//, 6, 'test helpers'],
];

function layerOf(file: string): [number, string] {
  const found = LAYERS.find(([pattern]) => pattern.test(file));
  if (!found) throw new Error(`${file} is in no layer of imports.spec.ts`);
  return [found[1], found[2]];
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) && !/\.(spec|d)\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

/** The repository files a module imports (static, dynamic and re-exports), relative ones only. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm)].map((m) => m[1]!);
  return specifiers.flatMap((specifier) => {
    // A computed path (a template) names no one file.
    if (specifier.includes('${')) return [];
    const base = path.posix.join(path.posix.dirname(file), specifier);
    const found = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => base + ext).find((f) => fs.existsSync(path.join(ROOT, f)) && fs.statSync(path.join(ROOT, f)).isFile());
    if (!found) throw new Error(`${file}: cannot resolve ${specifier}`);
    return [found];
  });
}

describe('imports', () => {
  const files = sourceFiles('src');
  const graph = new Map(files.map((file) => [file, importsOf(file)]));

  it('of src/ go to src/ and schemas/ only, never to a higher layer', () => {
    const problems: string[] = [];
    for (const [file, imports] of graph) {
      const [rank, name] = layerOf(file);
      for (const target of imports) {
        if (target.startsWith('schemas/')) continue;
        if (!target.startsWith('src/')) {
          problems.push(`${file} imports ${target}, outside src/ and schemas/`);
          continue;
        }
        const [targetRank, targetName] = layerOf(target);
        if (targetRank > rank) problems.push(`${file} (${name}) imports ${target} (${targetName})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('parses the imports', () => {
    expect([...graph.values()].flat().length).toBeGreaterThan(200);
  });

  it('of src/ form no cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...stack.slice(stack.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      stack.push(file);
      for (const target of graph.get(file) ?? []) if (graph.has(target)) visit(target);
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files) visit(file);
    expect(cycles).toEqual([]);
  });

  it('compile with Ajv at build time only: the app runs validators compiled ahead of it', () => {
    const ajv = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]ajv(?:-formats)?(?:\/[^'"]*)?['"]/m;
    const withAjv = [...files, ...sourceFiles('schemas')].filter((file) => ajv.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(withAjv).toEqual(['schemas/validationCode.ts']);
    expect(files.filter((file) => graph.get(file)!.includes('schemas/validationCode.ts'))).toEqual([]);
  });

  it('of the server never reach into src/', () => {
    const offending = sourceFiles('server/src').flatMap((file) => importsOf(file).filter((t) => t.startsWith('src/')).map((t) => `${file} → ${t}`));
    expect(offending).toEqual([]);
  });
});
