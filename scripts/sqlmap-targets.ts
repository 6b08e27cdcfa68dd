// Prints the sqlmap targets of scripts/sqlmap.sh, one per line: `<url>\t<comma-separated params>`.
// Every list call of the descriptors (schemas/index.ts RESOURCES) with its OrderName, search fields
// and filters; each parameter starts at a value that finds rows in the demo data (read from the
// SQLite file), because sqlmap's boolean tests can only tell true from false on a non-empty page.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { RESOURCES, toColumn } from '../schemas/index';

const [dataDir, base] = process.argv.slice(2);
if (!dataDir || !base) throw new Error('usage: sqlmap-targets.ts <DATA_DIR> <base URL>');
const db = new SQLite(path.join(dataDir, 'zhishi.sqlite'), { readonly: true });

for (const d of RESOURCES) {
  const row = (db.prepare(`select * from "${d.table}" limit 1`).get() ?? {}) as Record<string, unknown>;
  const query = new URLSearchParams({ OrderName: d.defaultOrder.split(',')[0]!.trim() });
  // The first two characters of a real value: a "contains" search that finds that row.
  for (const f of d.searchFields) query.set(f, [...String(row[toColumn(f)] ?? 'a')].slice(0, 2).join(''));
  for (const f of d.filters) query.set(f, String(row[toColumn(f)] ?? '1'));
  console.log(`${base}/${d.service}/${d.calls.list}?${query.toString()}\t${['OrderName', ...d.searchFields, ...d.filters].join(',')}`);
}
db.close();
