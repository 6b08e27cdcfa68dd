// 008_video_daily: written by `npm run db:generate` from the entity declarations, then frozen like 001:
// later changes go in new migrations. Migrations never import app code.
// - new table VIDEO_DAILY (videoDaily): ID, VD_CODE, DAY, VD_NUM, VD_FABULOUS
// - new unique index VIDEO_DAILY_VD_CODE_DAY_UNIQUE on VIDEO_DAILY (VD_CODE, DAY) for videoDaily: one row per VdCode, Day
import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // videoDaily
  await db.schema
    .createTable('VIDEO_DAILY')
    .ifNotExists()
    .addColumn('ID', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('VD_CODE', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('DAY', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('VD_NUM', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('VD_FABULOUS', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // videoDaily: one row per VdCode, Day
  await db.schema.createIndex('VIDEO_DAILY_VD_CODE_DAY_UNIQUE').ifNotExists().unique().on('VIDEO_DAILY').columns(['VD_CODE', 'DAY']).execute();
}
