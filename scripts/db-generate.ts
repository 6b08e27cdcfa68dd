// npm run db:generate [-- <name>]: brings the database migrations in step with the entity
// declarations. Lists the entity files in schemas/entities.ts, migrates a fresh in-memory SQLite
// database with every migration, compares it with what the descriptors need (server/src/db/
// schemaDiff.ts), writes what is missing as the next migration (server/src/db/migrations/
// NNN_<name>.ts, default name `schema`), and lists the migrations in migrations/index.ts. Written
// migrations are frozen: they are never rewritten, and nothing is ever dropped but the full-text
// index (FTS5 table, pages, queue) of a table whose entities no longer declare `fullText`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ResourceDescriptor } from '../schemas/descriptor';
import { entityFiles, migrationNames, nextMigrationName, renderEntities, renderRegistry } from '../server/src/db/generatedFiles';
import type { MigrationModule } from '../server/src/db/migrations/index';
import { describeDiff, diffSchema, isEmpty, migratedShape, renderMigration } from '../server/src/db/schemaDiff';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCHEMAS = path.join(ROOT, 'schemas');
const MIGRATIONS = path.join(ROOT, 'server/src/db/migrations');
const rel = (file: string) => path.relative(ROOT, file);

/** Writes a file when its content differs; says whether it did. */
function update(file: string, content: string): boolean {
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === content) return false;
  fs.writeFileSync(file, content);
  return true;
}

/** The migrations of the folder, loaded from their files (the registry may not list them all yet). */
async function loadMigrations(names: readonly string[]): Promise<Record<string, MigrationModule>> {
  const out: Record<string, MigrationModule> = {};
  for (const name of names) out[name] = (await import(pathToFileURL(path.join(MIGRATIONS, `${name}.ts`)).href)) as MigrationModule;
  return out;
}

async function main(): Promise<number> {
  const name = process.argv[2] ?? 'schema';
  const done: string[] = [];

  const entitiesFile = path.join(SCHEMAS, 'entities.ts');
  const entities = entityFiles(SCHEMAS);
  if (update(entitiesFile, renderEntities(entities))) done.push(`wrote ${rel(entitiesFile)}: ${entities.join(', ')}`);
  // Imported only now, so that the entity files just listed are among the descriptors.
  const { RESOURCES } = (await import('../schemas/index')) as { RESOURCES: readonly ResourceDescriptor[] };

  let names = migrationNames(MIGRATIONS);
  const diff = diffSchema(RESOURCES, await migratedShape(await loadMigrations(names)));
  if (diff.problems.length > 0) {
    console.error(describeDiff(diff).join('\n'));
    console.error('No migration written: write the migration above by hand as the next number, then run the command again.');
    return 1;
  }
  if (!isEmpty(diff)) {
    const migration = nextMigrationName(names, name);
    const file = path.join(MIGRATIONS, `${migration}.ts`);
    fs.writeFileSync(file, renderMigration(diff, migration));
    names = migrationNames(MIGRATIONS);
    done.push(`wrote ${rel(file)}:`, ...describeDiff(diff).map((line) => `  ${line}`));
    // The new migration must close the gap it was written for.
    const after = diffSchema(RESOURCES, await migratedShape(await loadMigrations(names)));
    if (!isEmpty(after)) {
      console.error(`${done.join('\n')}\nbut a database migrated with it still lacks:\n${describeDiff(after).join('\n')}`);
      return 1;
    }
  }

  const registry = path.join(MIGRATIONS, 'index.ts');
  if (update(registry, renderRegistry(names))) done.push(`wrote ${rel(registry)}: ${names.join(', ')}`);

  if (isEmpty(diff)) done.push('schemas and migrations agree');
  console.log(done.join('\n'));
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
