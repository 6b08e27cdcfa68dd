// A member may be disabled (停用) by an administrator: login is refused and sessions end. Existing
// members stay enabled (0). Frozen like 001: migrations never import app code.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('MEMBER')
    .addColumn('IS_DISABLED', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
