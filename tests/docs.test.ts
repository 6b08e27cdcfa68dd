// The repository's own references hold: every file an `npm run` script names exists, and every
// relative link of README.md and docs/ leads to a file (and heading) inside the repository. A
// reader who clones the repository has nothing else, so nothing may point outside it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileKind } from '../schemas/descriptor';
import { AUDITED_RESOURCES, MODULE_DECLARATIONS, uploadModules } from '../schemas/index';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Build output named by scripts (server/dist/server.mjs is written by build:server before it runs). */
const BUILT = ['server/dist/', 'dist/'];
const FENCED = /^```[\s\S]*?^```/gm;

function markdownFiles(): string[] {
  const found = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) found.push(rel);
    }
  };
  walk('docs');
  return found;
}

/** The files a script's command line names: relative paths with a script's extension. */
export function filesOfCommand(command: string): string[] {
  return command
    .split(/[\s;&|()]+/)
    .filter((token) => /^[\w.-]+(\/[\w.-]+)+\.(ts|tsx|mts|js|mjs|cjs|sh)$/.test(token));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = anchorOf(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Links outside fenced code: [text](target) and [text]: target. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(FENCED, '').replace(/`[^`\n]*`/g, '');
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const reference = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!);
  return [...inline, ...reference];
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);
const inRepository = (absolute: string) => absolute === ROOT || absolute.startsWith(ROOT + path.sep);

describe('the repository refers only to itself', () => {
  it('finds script files and anchors the way the checks below read them', () => {
    expect(filesOfCommand('node scripts/a.mjs && tsx scripts/bench/all.ts --flag x.ts')).toEqual(['scripts/a.mjs', 'scripts/bench/all.ts']);
    expect(anchorOf('Adding an entity')).toBe('adding-an-entity');
    expect(anchorOf('Running on PostgreSQL (and `S3`)')).toBe('running-on-postgresql-and-s3');
    expect(anchorOf('统一口径, first page')).toBe('统一口径-first-page');
  });

  it('every file an npm run script names exists', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const missing: string[] = [];
    let named = 0;
    for (const [name, command] of Object.entries(pkg.scripts)) {
      for (const file of filesOfCommand(command)) {
        if (BUILT.some((dir) => file.startsWith(dir))) continue;
        named += 1;
        if (!fs.existsSync(path.join(ROOT, file))) missing.push(`npm run ${name}: ${file}`);
      }
    }
    expect(named).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it('every relative link of README.md and docs/ resolves to a file (and heading) of the repository', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdownFiles()) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const link of linksOf(text)) {
        if (isExternal(link)) continue;
        checked += 1;
        const [target = '', anchor] = link.split('#');
        const absolute = target ? path.resolve(ROOT, path.dirname(file), decodeURIComponent(target)) : path.join(ROOT, file);
        if (!inRepository(absolute) || !fs.existsSync(absolute)) {
          broken.push(`${file}: ${link} (no such file in the repository)`);
          continue;
        }
        if (anchor && absolute.endsWith('.md') && !anchorsOf(fs.readFileSync(absolute, 'utf8')).has(decodeURIComponent(anchor))) {
          broken.push(`${file}: ${link} (no such heading)`);
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
    expect(broken).toEqual([]);
  });

  it('README.md and docs/ name no path outside the repository, in links or in inline code', () => {
    const outside: string[] = [];
    for (const file of markdownFiles()) {
      // Fenced examples are code: their imports are relative to the example's own file.
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(FENCED, '');
      for (const match of text.matchAll(/(?:^|[\s`(["'])((?:\.\.\/)+[\w.-][\w./-]*)/g)) {
        const absolute = path.resolve(ROOT, path.dirname(file), match[1]!);
        if (!inRepository(absolute)) outside.push(`${file}: ${match[1]}`);
      }
    }
    expect(outside).toEqual([]);
  });
});

describe('the lists docs/api.md keeps are the declarations\' own', () => {
  const api = fs.readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8');
  /** The rows of the markdown table whose header row starts with `header`. */
  const tableRows = (header: string) => {
    const lines = api.split('\n');
    const start = lines.findIndex((line) => line.startsWith(header));
    expect(start, header).toBeGreaterThan(-1);
    const rows: string[][] = [];
    for (const line of lines.slice(start + 2)) {
      if (!line.startsWith('|')) break;
      rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
    }
    return rows;
  };
  const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

  it('lists every declared permission module with its name', () => {
    const rows = tableRows('| module | name |').map(([key, name]) => [codes(key!)[0], name]);
    expect(rows).toEqual(MODULE_DECLARATIONS.map((m) => [m.key, m.label]));
  });

  it('names who may upload each kind as uploadModules derives it', () => {
    for (const [kind, , , who] of tableRows('| `Kind` |')) {
      expect(codes(who!).sort(), kind).toEqual(uploadModules(codes(kind!)[0] as FileKind).sort());
    }
  });

  it('names the audited resources of the log filter', () => {
    const line = api.split('\n').findIndex((l) => l.includes('- the filters `Resource`'));
    const text = api.split('\n').slice(line, line + 3).join(' ');
    const named = codes(text.slice(text.indexOf('in this repository'), text.indexOf('), `Action`')));
    expect(named.sort()).toEqual(Object.keys(AUDITED_RESOURCES).sort());
  });
});
