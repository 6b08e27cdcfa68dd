// 010_dashboard: written by `npm run db:generate` from the entity declarations, then frozen like 001:
// later changes go in new migrations. Migrations never import app code.
// - new index VIDEO_MESSAGE_VM_TIME_ID on VIDEO_MESSAGE (VM_TIME, ID) for videoComment: VmTime, Id
// - new index VIDEO_DAILY_DAY_VD_CODE_VD_NUM_VD_FABULOUS on VIDEO_DAILY (DAY, VD_CODE, VD_NUM, VD_FABULOUS) for videoDaily: Day, VdCode, VdNum, VdFabulous
import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on raw tables
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  // videoComment: VmTime, Id
  await db.schema.createIndex('VIDEO_MESSAGE_VM_TIME_ID').ifNotExists().on('VIDEO_MESSAGE').columns(['VM_TIME', 'ID']).execute();
  // videoDaily: Day, VdCode, VdNum, VdFabulous
  await db.schema.createIndex('VIDEO_DAILY_DAY_VD_CODE_VD_NUM_VD_FABULOUS').ifNotExists().on('VIDEO_DAILY').columns(['DAY', 'VD_CODE', 'VD_NUM', 'VD_FABULOUS']).execute();
}
