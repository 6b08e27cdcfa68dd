// Generates the benchmark data set of issue 6 into a fresh SQLite database: 1,000,000 videos in
// 10 categories (the largest holding 100,317), 1,000,000 comments (100,000 on one busy video),
// 200,000 articles in 5,000 classifications, 2,000 websites, and a year of the videos' daily figures
// up to today (a few thousand videos watched a day, the popular ones far more often). Rows are written with prepared
// statements in one transaction for speed, then the kept totals are rebuilt from the rows.
import { RESOURCES } from '../../schemas/index';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import { openDatabase, openSqlite } from '../../server/src/db/database';
import { rebuildCounts } from '../../server/src/db/rowCounts';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { dayIn, DEFAULT_TIME_ZONE } from '../../schemas/businessTime';

export const SIZES = { videos: 1_000_000, bigCategory: 100_317, categories: 10, comments: 1_000_000, busyComments: 100_000, articles: 200_000, classifications: 5_000, websites: 2_000, dailyDays: 365, watchedPerDay: [2_000, 4_000] };

/** The business days of the daily figures: the last `SIZES.dailyDays` up to today (the server's default zone). */
const dailyDays = () => Array.from({ length: SIZES.dailyDays }, (_, i) => dayIn(DEFAULT_TIME_ZONE, Date.now() - (SIZES.dailyDays - 1 - i) * 86_400_000));

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Deterministic pseudo-random numbers, so every run measures the same data. */
function random(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const code = (prefix: string, i: number) => `${prefix}${i.toString(16).padStart(12, '0')}`;

/** The code of the largest category (SIZES.bigCategory videos), the same in every data set made here. */
export const BIG_VDT_CODE = code('vt', 0);
const day = (rnd: () => number) => new Date(Date.UTC(2021, 0, 1) + Math.floor(rnd() * 1800) * 86400000).toISOString().slice(0, 10);

export async function generate(dataDir: string): Promise<{ bigVdtCode: string; busyVdCode: string; seconds: number }> {
  const started = Date.now();
  const database = await openDatabase({ dataDir }); // runs the migrations
  await database.close();
  const db = openSqlite(path.join(dataDir, 'zhishi.sqlite'));
  const rnd = random(7);
  const stamp = new Date().toISOString();
  db.transaction(() => {
    const type = db.prepare('insert into VIDEO_TYPE (VDT_CODE, VDT_NAME, VDT_SORT) values (?, ?, ?)');
    for (let t = 0; t < SIZES.categories; t++) type.run(code('vt', t), `分类${t + 1}`, t + 1);
    const video = db.prepare(
      'insert into VIDEO (VD_CODE, VDT_CODE, VD_NAME, VD_PER, VD_NUM, VD_TIME, VD_URL, VD_ENCLOSURE, IS_TOP, UPDATE_TIME, CREATE_USER) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const rest = (SIZES.videos - SIZES.bigCategory) / (SIZES.categories - 1);
    for (let i = 0; i < SIZES.videos; i++) {
      const t = i < SIZES.bigCategory ? 0 : 1 + Math.floor((i - SIZES.bigCategory) / rest);
      video.run(code('vd', i), code('vt', Math.min(t, SIZES.categories - 1)), `视频 ${i}`, '讲师', Math.floor(rnd() * 500), day(rnd), '/files/demo/demo.mp4', '[]', rnd() < 0.01 ? 1 : 0, stamp, '管理员');
    }
    const comment = db.prepare('insert into VIDEO_MESSAGE (VD_CODE, VM_NAME, VM_DES, VM_TIME, AU_CODE, AU_NAME, ORGANIZATION_NAME) values (?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < SIZES.comments; i++) {
      const vd = i < SIZES.busyComments ? 0 : 1 + Math.floor(rnd() * 5000);
      comment.run(code('vd', vd), '', `<p>评论 ${i}</p>`, new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(), 'au', '员工', '造价一部');
    }
    const classify = db.prepare('insert into DOC_CLASSIFY (SC_CODE, SC_FATHER_CODE, SC_NAME, SC_SORT, TYPE) values (?, ?, ?, ?, ?)');
    for (let i = 0; i < SIZES.classifications; i++) {
      // 50 roots per type spread over the 4 types, the rest children of earlier ones.
      const father = i < 200 ? '0' : code('sc', Math.floor(rnd() * i));
      classify.run(code('sc', i), father, `分类 ${i}`, i % 50, i < 200 ? i % 4 : 0);
    }
    const article = db.prepare('insert into DOC_ARTICLE (SA_CODE, SC_CODE, SA_TYPE, SA_NAME, PUBLISH_TIME, SA_CODE_NAME, IS_COMMON, SA_SORT, TYPE, UPDATE_TIME) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < SIZES.articles; i++) {
      // An article has its classification's type (the 200 roots carry the four types).
      const sc = i % SIZES.classifications;
      article.run(code('sa', i), code('sc', sc), i % 2, `文章 ${i}`, day(rnd), `文号${i}`, rnd() < 0.05 ? 1 : 0, i % 20, sc < 200 ? sc % 4 : 0, stamp);
    }
    const web = db.prepare('insert into USEWEB (UW_NAME, UW_URL, UW_TYPE, UW_SORT) values (?, ?, 0, ?)');
    for (let i = 0; i < SIZES.websites; i++) web.run(`网站 ${i}`, `https://example.com/${i}`, i + 1);
    // Each day some thousands of videos, skewed towards a popular few (index ~ rnd³), one row each.
    const daily = db.prepare('insert into VIDEO_DAILY (VD_CODE, DAY, VD_NUM, VD_FABULOUS) values (?, ?, ?, ?)');
    const [least, most] = SIZES.watchedPerDay;
    for (const d of dailyDays()) {
      const watched = new Set<number>();
      const n = least! + Math.floor(rnd() * (most! - least!));
      while (watched.size < n) watched.add(Math.floor(SIZES.videos * rnd() ** 3));
      for (const v of watched) {
        const plays = 1 + Math.floor(rnd() ** 2 * 50);
        daily.run(code('vd', v), d, plays, Math.floor(plays * rnd() * 0.3));
      }
    }
  })();
  db.pragma('analysis_limit = 1000');
  db.exec('analyze');
  db.close();
  // The rows bypassed the repository: recount the kept totals from them.
  const again = await openDatabase({ dataDir });
  for (const d of RESOURCES as readonly ResourceDescriptor[]) {
    if (d.module !== 'admin') await rebuildCounts(again.db as never, d);
  }
  await again.close();
  // The file (about 1 GB) is on disk before anything is measured: left to the kernel, its write-back
  // starts some 30 s later (dirty_expire), which is during the first figure of the run.
  syncFile(path.join(dataDir, 'zhishi.sqlite'));
  return { bigVdtCode: code('vt', 0), busyVdCode: code('vd', 0), seconds: (Date.now() - started) / 1000 };
}

/**
 * The same data set in PostgreSQL (a fresh database at `url`), written by the server with
 * generate_series: the sizes and the shape (category sizes, busy video, tree) are those of SQLite's;
 * the pseudo-random values come from integer hashing instead of the generator above.
 */
export async function generatePostgres(url: string): Promise<{ bigVdtCode: string; busyVdCode: string; seconds: number }> {
  const started = Date.now();
  const database = await openDatabase({ dataDir: '', databaseUrl: url }); // runs the migrations
  const run = (text: string) => sql.raw(text).execute(database.db);
  const hex = (expr: string) => `lpad(to_hex(${expr}), 12, '0')`;
  const stamp = new Date().toISOString();
  const rest = (SIZES.videos - SIZES.bigCategory) / (SIZES.categories - 1);
  await run(`insert into "VIDEO_TYPE" ("VDT_CODE", "VDT_NAME", "VDT_SORT")
    select 'vt' || ${hex('t')}, '分类' || (t + 1), t + 1 from generate_series(0, ${SIZES.categories - 1}) t`);
  await run(`insert into "VIDEO" ("VD_CODE", "VDT_CODE", "VD_NAME", "VD_PER", "VD_NUM", "VD_TIME", "VD_URL", "VD_ENCLOSURE", "IS_TOP", "UPDATE_TIME", "CREATE_USER")
    select 'vd' || ${hex('i')},
      'vt' || ${hex(`case when i < ${SIZES.bigCategory} then 0 else least(${SIZES.categories - 1}, 1 + floor((i - ${SIZES.bigCategory}) / ${rest})::int) end`)},
      '视频 ' || i, '讲师', (i::bigint * 7919) % 500,
      to_char(date '2021-01-01' + ((i::bigint * 2654435761) % 1800)::int, 'YYYY-MM-DD'),
      '/files/demo/demo.mp4', '[]', case when (i::bigint * 40503) % 100 = 0 then 1 else 0 end, '${stamp}', '管理员'
    from generate_series(0, ${SIZES.videos - 1}) i`);
  await run(`insert into "VIDEO_MESSAGE" ("VD_CODE", "VM_NAME", "VM_DES", "VM_TIME", "AU_CODE", "AU_NAME", "ORGANIZATION_NAME")
    select 'vd' || ${hex(`case when i < ${SIZES.busyComments} then 0 else 1 + (i::bigint * 48271) % 5000 end`)}, '', '<p>评论 ' || i || '</p>',
      to_char(timestamp '2025-01-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"'), 'au', '员工', '造价一部'
    from generate_series(0, ${SIZES.comments - 1}) i`);
  await run(`insert into "DOC_CLASSIFY" ("SC_CODE", "SC_FATHER_CODE", "SC_NAME", "SC_SORT", "TYPE")
    select 'sc' || ${hex('i')},
      case when i < 200 then '0' else 'sc' || ${hex('((i::bigint * 2654435761) % 1000003) * i / 1000003')} end,
      '分类 ' || i, i % 50, case when i < 200 then i % 4 else 0 end
    from generate_series(0, ${SIZES.classifications - 1}) i`);
  await run(`insert into "DOC_ARTICLE" ("SA_CODE", "SC_CODE", "SA_TYPE", "SA_NAME", "PUBLISH_TIME", "SA_CODE_NAME", "IS_COMMON", "SA_SORT", "TYPE", "UPDATE_TIME")
    select 'sa' || ${hex('i')}, 'sc' || ${hex(`i % ${SIZES.classifications}`)}, i % 2, '文章 ' || i,
      to_char(date '2021-01-01' + ((i::bigint * 2654435761) % 1800)::int, 'YYYY-MM-DD'), '文号' || i,
      case when (i::bigint * 40503) % 20 = 0 then 1 else 0 end, i % 20,
      case when i % ${SIZES.classifications} < 200 then (i % ${SIZES.classifications}) % 4 else 0 end, '${stamp}'
    from generate_series(0, ${SIZES.articles - 1}) i`);
  await run(`insert into "USEWEB" ("UW_NAME", "UW_URL", "UW_TYPE", "UW_SORT")
    select '网站 ' || i, 'https://example.com/' || i, 0, i + 1 from generate_series(0, ${SIZES.websites - 1}) i`);
  // The daily figures as SQLite's: per day some thousands of videos skewed to the popular (index ~ r³).
  const [least, most] = SIZES.watchedPerDay;
  const days = dailyDays();
  await run(`insert into "VIDEO_DAILY" ("VD_CODE", "DAY", "VD_NUM", "VD_FABULOUS")
    select 'vd' || ${hex(`floor(${SIZES.videos} * power(r, 3))::bigint`)}, day, plays, floor(plays * r2 * 0.3)::int
    from (
      -- Repeats of a video on a day fall away (on conflict): somewhat fewer rows a day than SQLite's.
      select d.day, random() as r, random() as r2, 1 + floor(power(random(), 2) * 50)::int as plays
      from (select to_char('${days[0]}'::date + n, 'YYYY-MM-DD') as day,
              ${least} + (n * 7919) % ${most! - least!} as watched from generate_series(0, ${days.length - 1}) n) d
      cross join lateral generate_series(1, d.watched) k
    ) x
    on conflict do nothing`);
  for (const d of RESOURCES as readonly ResourceDescriptor[]) {
    if (d.module !== 'admin') await rebuildCounts(database.db as never, d);
  }
  // As a maintained database is: a bulk load leaves every row's visibility unknown, so the first
  // reads would write hint bits (and autovacuum would run) during the measurement itself.
  await run('vacuum analyze');
  // CHECKPOINT needs a superuser (the bench's own cluster has one; a given BENCH_DATABASE_URL may not).
  await run('checkpoint').catch(() => undefined);
  await database.close();
  return { bigVdtCode: code('vt', 0), busyVdCode: code('vd', 0), seconds: (Date.now() - started) / 1000 };
}
