// npm run reindex: (re)builds the full-text index of every record of every entity with `fullText`,
// beside a running server or without one, with the configuration of `npm start` (DATA_DIR,
// DATABASE_URL, STORAGE…). Each record is queued (FT_JOB), then read by REINDEX_THREADS worker
// threads (default: one per core) with the server's indexer, which a running server's indexer
// shares safely. A progress bar on a terminal, a line every few seconds otherwise. Ctrl-C stops
// after the documents being read; the next `npm run reindex` resumes where it stopped (the queue is
// in the database), and `npm run reindex -- --restart` queues every record again.
import { sql } from 'kysely';
import { usableCpus } from '../cpus';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { uploadSecret } from '../bootstrap';
import { createStorage } from '../storage/index';
import { FULL_TEXT_RESOURCES } from './declared';
import { FullTextIndexer } from './indexer';
import { optimizeIndex, type AnyDb } from './store';

/** SETTING row held while a reindex has queued its records and not finished them. */
const REINDEX_SETTING = 'full_text_reindex';
const LINE_EVERY_MS = 5000;
/** Signals within this long of the first Ctrl-C count as the same press (relayed by npm and tsx). */
const SAME_PRESS_MS = 1000;

async function waiting(db: AnyDb): Promise<number> {
  const row = (await db.selectFrom('FT_JOB').select(sql<number>`count(*)`.as('n')).executeTakeFirst()) as { n: number | string };
  return Number(row.n);
}

async function main() {
  const restart = process.argv.includes('--restart');
  const config = loadConfig(process.env);
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: 4 });
  const db = database.db as unknown as AnyDb;
  const storage = await createStorage(config, await uploadSecret(database));
  const started = (await db.selectFrom('SETTING').select('VALUE').where('NAME', '=', REINDEX_SETTING).executeTakeFirst()) as { VALUE: string } | undefined;
  if (!started || restart) {
    // Every record queued at once (one statement per table), each job its record's own. (`where
    // true`: SQLite's parser needs it before an upsert's ON CONFLICT.)
    const now = new Date().toISOString();
    for (const d of FULL_TEXT_RESOURCES) {
      await sql`insert into "FT_JOB" ("TBL", "RECORD_ID", "STATE", "VERSION", "TRIES", "DUE_AT")
        select ${d.table}, "ID", 'waiting', 1, 0, ${now} from ${sql.table(d.table)} where true
        on conflict ("TBL", "RECORD_ID") do update set "STATE" = 'waiting', "VERSION" = "FT_JOB"."VERSION" + 1, "TRIES" = 0, "DUE_AT" = ${now}, "LEASE_UNTIL" = null`.execute(db);
    }
    await db
      .insertInto('SETTING')
      .values({ NAME: REINDEX_SETTING, VALUE: now })
      .onConflict((oc) => oc.column('NAME').doUpdateSet({ VALUE: now }))
      .execute();
    console.log('全文索引：已将全部记录加入队列 (every record queued)');
  } else {
    console.log(`全文索引：继续 ${started.VALUE} 开始的重建 (resuming the reindex started ${started.VALUE})`);
  }

  const total = await waiting(db);
  const threads = Number(process.env.REINDEX_THREADS ?? usableCpus());
  const indexer = new FullTextIndexer(database, storage, { threads, log: { warn: (obj: object, msg: string) => console.warn(msg, obj) } });
  let done = 0;
  let stopping = false;
  const began = Date.now();
  const tty = process.stdout.isTTY;
  let lastLine = 0;
  const show = (final = false) => {
    const seconds = (Date.now() - began) / 1000;
    const rate = done / Math.max(seconds, 0.001);
    const left = Math.max(0, total - done);
    // No time left is guessed before a record is done, and none said to be 0 while records are left.
    const eta = done > 0 ? `  ${rate.toFixed(1)} 条/秒  剩余约 ${Math.ceil(left / rate)} 秒` : '';
    const text = `${done}/${total} 条记录${eta}`;
    if (tty) {
      const width = 30;
      const filled = total > 0 ? Math.round((width * Math.min(done, total)) / total) : width;
      process.stdout.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}   ${final ? '\n' : ''}`);
    } else if (final || Date.now() - lastLine >= LINE_EVERY_MS) {
      lastLine = Date.now();
      console.log(text);
    }
  };
  // Ctrl-C reaches this process from the terminal and again through npm and tsx, which relay it:
  // a second one within a second is that same press. A later one stops at once.
  let stoppingSince = 0;
  process.on('SIGINT', () => {
    if (stopping) {
      if (Date.now() - stoppingSince >= SAME_PRESS_MS) process.exit(130);
      return;
    }
    stopping = true;
    stoppingSince = Date.now();
    process.stdout.write('\n正在停止：读完手头的文件后退出，再次运行 npm run reindex 继续 (stopping; run it again to resume)\n');
    void indexer.stop();
  });
  const ticker = setInterval(() => show(), tty ? 250 : 1000);
  await indexer.drain(() => done++);
  clearInterval(ticker);
  show(true);
  await indexer.stop();
  const left = await waiting(db);
  if (!stopping && left === 0) {
    await db.deleteFrom('SETTING').where('NAME', '=', REINDEX_SETTING).execute();
    console.log('全文索引：整理索引 (merging the index)…');
    await optimizeIndex(db, database.dialect, FULL_TEXT_RESOURCES.map((d) => d.table));
  }
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  console.log(stopping ? `已停止：${left} 条待索引 (stopped, ${left} waiting)` : `完成：${done} 条记录，用时 ${seconds} 秒 (done)`);
  await database.close();
  process.exit(stopping ? 130 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
