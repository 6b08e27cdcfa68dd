// The start page's calls (docs/api.md, "Start page"): content counts, plays and likes per business
// day, the most and the never watched videos of a period, the latest comments, the latest changes
// (administrators) and the storage by kind. Each is refused to a member who may not see its section
// (schemas/dashboard.ts dashboardSections, the rule the page shows them by). Every figure is read
// from an index or a kept total (ROW_COUNT, FILE_USAGE), so each call stays fast at a million
// videos with a year of daily rows (npm run bench: scripts/bench/dashboard.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { AUDITED_RESOURCES, resourceByName } from '../../../schemas/index';
import { auditLogResource } from '../../../schemas/auditLog';
import { dayIn } from '../../../schemas/businessTime';
import {
  DASHBOARD_CALLS,
  DASHBOARD_LIST_SIZE,
  DASHBOARD_PERIODS,
  FILE_KIND_LABELS,
  dashboardSections,
  periodDays,
  visibleCountedTypes,
  visibleFileKinds,
  type DashboardChange,
  type DashboardComment,
  type DashboardCount,
  type DashboardCountGroup,
  type DashboardDaily,
  type DashboardSections,
  type DashboardStorage,
  type DashboardTopVideos,
  type DashboardVideo,
} from '../../../schemas/dashboard';
import { toColumn, type ResourceDescriptor } from '../../../schemas/descriptor';
import type { MenuEntry } from '../../../schemas/index';
import { videoResource } from '../../../schemas/video';
import { videoCommentResource, videoCommentSchema } from '../../../schemas/videoComment';
import { videoDailyResource } from '../../../schemas/videoDaily';
import { summarise } from '../audit/log';
import { toCurrentMember, type MemberRow } from '../auth/members';
import { rowBatches } from '../db/cursor';
import type { Db } from '../db/database';
import { parseOrderName } from '../db/orderName';
import { keptCount } from '../db/rowCounts';
import { VersionedCache } from '../db/versionedCache';
import { forbidden } from '../errors';
import { ok } from '../http/envelope';
import { requireMember } from '../plugins/permissions';
import { readRoute } from './crud';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are chosen by descriptor at run time
type AnyDb = Kysely<any>;

const periodSchema = {
  type: 'object',
  properties: { Days: { type: 'integer', enum: [...DASHBOARD_PERIODS], default: DASHBOARD_PERIODS[0], description: '统计天数（含今天）' } },
  additionalProperties: false,
} as const;
const noParamsSchema = { type: 'object', properties: {}, additionalProperties: false } as const;

const ref = (column: string, table?: string) => sql.ref(table ? `${table}.${column}` : column);

/** The values of a counted type's `by` filter, each with its label and screen. */
async function groupsOf(db: AnyDb, descriptor: ResourceDescriptor, by: string, entries: readonly MenuEntry[]): Promise<Omit<DashboardCountGroup, 'Count'>[]> {
  // A menu entry per value (an article type's catalogue, `?type=0`): its label and link.
  const byEntry = entries.flatMap((entry) => {
    const value = new URLSearchParams(entry.to.split('?')[1] ?? '').get(by);
    return value === null ? [] : [{ Value: value, Label: entry.label, Link: entry.to }];
  });
  // The first entry of a value names it (a catalogue before its management screen).
  if (byEntry.length > 0) return byEntry.filter((g, i) => byEntry.findIndex((h) => h.Value === g.Value) === i);
  // A reference (a video's category): the referenced records, in their own order, named by their name field.
  const reference = descriptor.references?.find((r) => r.field === by);
  const target = reference && resourceByName(reference.to);
  if (!reference || !target?.nameField) return [];
  let query = db.selectFrom(target.table).select([sql<string>`${ref(toColumn(reference.toField))}`.as('Value'), sql<string>`${ref(toColumn(target.nameField))}`.as('Label')]);
  for (const term of parseOrderName(undefined, target)) query = query.orderBy(term.column, term.direction);
  const rows = (await query.limit(100).execute()) as { Value: string; Label: string }[];
  return rows.map((r) => ({ Value: String(r.Value), Label: String(r.Label) }));
}

async function counts(db: AnyDb, member: MemberRow): Promise<DashboardCount[]> {
  const out: DashboardCount[] = [];
  for (const { descriptor, entries } of visibleCountedTypes(toCurrentMember(member))) {
    const by = descriptor.homeCount?.by;
    const groups = by === undefined ? [] : await groupsOf(db, descriptor, by, entries);
    const [total, ...each] = await Promise.all([
      keptCount(db, descriptor, {}),
      ...groups.map((g) => keptCount(db, descriptor, { [by!]: g.Value })),
    ]);
    out.push({
      Resource: descriptor.resource,
      Label: descriptor.label,
      Total: total ?? 0,
      Link: entries[0]!.to,
      Groups: groups.map((g, i) => ({ ...g, Count: each[i] ?? 0 })),
    });
  }
  return out;
}

/** The first and last business day of a period ending today. */
function period(timeZone: string, days: unknown): { from: string; to: string; days: string[] } {
  const n = DASHBOARD_PERIODS.find((p) => p === Number(days)) ?? DASHBOARD_PERIODS[0];
  const all = periodDays(dayIn(timeZone), n);
  return { from: all[0]!, to: all[all.length - 1]!, days: all };
}

const DAILY = videoDailyResource.table;

interface Figures {
  plays: number;
  likes: number;
}
type DailyRow = { DAY: string; VD_CODE: string; VD_NUM: number | string; VD_FABULOUS: number | string };

/**
 * The figures of the days before today of the longest period: days before today change only when a
 * video goes (its rows with it) or rows are loaded in bulk, both of which change the kept number of
 * rows (ROW_COUNT), so they are summed once per process and business day and kept under that number.
 */
interface ClosedDays {
  key: string;
  perDay: Map<string, Figures>;
  /** Per period: each video's figures over the period's days before today, and its ten most played. */
  periods: Map<number, { perVideo: Map<string, Figures>; top: string[]; watched: number }>;
}

const add = (map: Map<string, Figures>, key: string, plays: number, likes: number) => {
  const f = map.get(key);
  if (f) {
    f.plays += plays;
    f.likes += likes;
  } else map.set(key, { plays, likes });
};

/** Most played first, then by code: the order of the list. */
const byPlays = (a: [string, Figures], b: [string, Figures]) => b[1].plays - a[1].plays || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** Rows summed between two turns of the event loop. */
const SUM_BATCH = 2000;

/**
 * Reads the rows a batch at a time (a cursor, db/cursor.ts) and lets calls run between batches: a
 * year of daily rows of a million videos is read in about a second, which neither holds up calls
 * nor holds the rows (all of them at once grew the process by some 80 MB at start).
 */
async function sumClosedDays(database: Db, today: string, key: string): Promise<ClosedDays> {
  const longest = Math.max(...DASHBOARD_PERIODS);
  const first = periodDays(today, longest)[0]!;
  // Read from the (day, video, plays, likes) index alone.
  const query = sql<DailyRow>`select ${ref('DAY')}, ${ref('VD_CODE')}, ${ref('VD_NUM')}, ${ref('VD_FABULOUS')}
    from ${sql.table(DAILY)} where ${ref('DAY')} >= ${first} and ${ref('DAY')} < ${today}`.compile(database.db);
  const perDay = new Map<string, Figures>();
  const starts = DASHBOARD_PERIODS.map((p) => [p, periodDays(today, p)[0]!] as const);
  const perVideo = new Map(DASHBOARD_PERIODS.map((p) => [p as number, new Map<string, Figures>()]));
  for await (const batch of rowBatches(database, query, SUM_BATCH)) {
    for (const r of batch as DailyRow[]) {
      const plays = Number(r.VD_NUM);
      const likes = Number(r.VD_FABULOUS);
      add(perDay, r.DAY, plays, likes);
      for (const [p, from] of starts) if (r.DAY >= from) add(perVideo.get(p)!, r.VD_CODE, plays, likes);
    }
    await new Promise(setImmediate);
  }
  const periods = new Map(
    [...perVideo].map(([p, videos]) => {
      const played = [...videos].filter(([, f]) => f.plays > 0);
      return [p, { perVideo: videos, top: played.sort(byPlays).slice(0, DASHBOARD_LIST_SIZE).map(([code]) => code), watched: played.length }];
    }),
  );
  return { key, perDay, periods };
}

/** The figures of the days before today (kept), and today's rows (read each time: at most a few thousand). */
function dailyFigures(app: FastifyInstance) {
  let kept: Promise<ClosedDays> | undefined;
  let keptKey = '';
  return async (db: AnyDb): Promise<{ today: string; closed: ClosedDays; todays: DailyRow[] }> => {
    const today = dayIn(app.config.timeZone);
    const [{ rows: todays }, total] = await Promise.all([
      sql<DailyRow>`select ${ref('DAY')}, ${ref('VD_CODE')}, ${ref('VD_NUM')}, ${ref('VD_FABULOUS')} from ${sql.table(DAILY)} where ${ref('DAY')} = ${today}`.execute(db),
      keptCount(db, videoDailyResource, {}),
    ]);
    const key = `${today} ${(total ?? 0) - todays.length}`;
    if (!kept || keptKey !== key) {
      keptKey = key;
      kept = sumClosedDays(app.database, today, key);
      // A failed sum is not kept.
      kept.catch(() => {
        if (keptKey === key) kept = undefined;
      });
    }
    return { today, closed: await kept, todays };
  };
}

function daily(figures: Awaited<ReturnType<ReturnType<typeof dailyFigures>>>, days: number): DashboardDaily {
  const all = periodDays(figures.today, days);
  const perDay = new Map(figures.closed.perDay);
  const today = { plays: 0, likes: 0 };
  for (const r of figures.todays) {
    today.plays += Number(r.VD_NUM);
    today.likes += Number(r.VD_FABULOUS);
  }
  perDay.set(figures.today, today);
  return {
    From: all[0]!,
    To: figures.today,
    Days: all.map((Day) => ({ Day, VdNum: perDay.get(Day)?.plays ?? 0, VdFabulous: perDay.get(Day)?.likes ?? 0 })),
  };
}

type VideoRow = { ID: number | string; VD_CODE: string; VDT_CODE: string; VD_NAME: string; VD_TIME?: string };
const video = (r: VideoRow): DashboardVideo => ({ Id: Number(r.ID), VdCode: r.VD_CODE, VdtCode: r.VDT_CODE, VdName: r.VD_NAME });

async function topVideos(db: AnyDb, figures: Awaited<ReturnType<ReturnType<typeof dailyFigures>>>, days: number): Promise<DashboardTopVideos> {
  const period = figures.closed.periods.get(days)!;
  // Only the ten most played before today, and the videos played today, can be among the ten.
  const candidates = new Map<string, Figures>();
  for (const code of period.top) candidates.set(code, { ...period.perVideo.get(code)! });
  let newlyWatched = 0;
  for (const r of figures.todays) {
    const before = period.perVideo.get(r.VD_CODE);
    if (!candidates.has(r.VD_CODE)) candidates.set(r.VD_CODE, before ? { ...before } : { plays: 0, likes: 0 });
    add(candidates, r.VD_CODE, Number(r.VD_NUM), Number(r.VD_FABULOUS));
    if (Number(r.VD_NUM) > 0 && !(before && before.plays > 0)) newlyWatched++;
  }
  const top = [...candidates].filter(([, f]) => f.plays > 0).sort(byPlays).slice(0, DASHBOARD_LIST_SIZE);
  const codes = top.map(([code]) => code);
  const videos =
    codes.length === 0
      ? []
      : ((await db.selectFrom(videoResource.table).select(['ID', 'VD_CODE', 'VDT_CODE', 'VD_NAME']).where('VD_CODE', 'in', codes).execute()) as VideoRow[]);
  const byCode = new Map(videos.map((v) => [v.VD_CODE, v]));
  return {
    Watched: period.watched + newlyWatched,
    Total: (await keptCount(db, videoResource, {})) ?? 0,
    Rows: top.flatMap(([code, f]) => {
      const v = byCode.get(code);
      return v ? [{ ...video(v), VdNum: f.plays, VdFabulous: f.likes }] : [];
    }),
  };
}

async function unwatchedVideos(db: AnyDb, range: ReturnType<typeof period>): Promise<DashboardVideo[]> {
  // In the video list's own order (pinned, then newest: its index), each checked on the one-row-per-day index.
  let query = db
    .selectFrom(`${videoResource.table} as v`)
    .select(['v.ID', 'v.VD_CODE', 'v.VDT_CODE', 'v.VD_NAME', 'v.VD_TIME'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom(`${DAILY} as d`)
            .select(sql`1`.as('one'))
            .whereRef('d.VD_CODE', '=', 'v.VD_CODE')
            .where('d.DAY', '>=', range.from)
            .where('d.DAY', '<=', range.to)
            .where('d.VD_NUM', '>', 0),
        ),
      ),
    );
  for (const term of parseOrderName(undefined, videoResource)) query = query.orderBy(`v.${term.column}`, term.direction);
  const rows = (await query.limit(DASHBOARD_LIST_SIZE).execute()) as VideoRow[];
  return rows.map((r) => ({ ...video(r), VdTime: r.VD_TIME ?? '' }));
}

async function latestComments(db: AnyDb): Promise<DashboardComment[]> {
  const c = videoCommentResource.table;
  const rows = (await db
    .selectFrom(`${c} as c`)
    .innerJoin(`${videoResource.table} as v`, 'v.VD_CODE', 'c.VD_CODE')
    .select(['c.ID as CID', 'c.VM_DES', 'c.VM_TIME', 'c.AU_NAME', 'v.ID', 'v.VD_CODE', 'v.VDT_CODE', 'v.VD_NAME'])
    .orderBy('c.VM_TIME', 'desc')
    .orderBy('c.ID', 'desc')
    .limit(DASHBOARD_LIST_SIZE)
    .execute()) as (VideoRow & { CID: number | string; VM_DES: string; VM_TIME: string; AU_NAME: string })[];
  return rows.map((r) => ({
    Id: Number(r.CID),
    Text: String(summarise(videoCommentSchema.properties.VmDes, r.VM_DES).value),
    VmTime: r.VM_TIME,
    AuName: r.AU_NAME,
    Video: video(r),
  }));
}

async function latestChanges(db: AnyDb): Promise<DashboardChange[]> {
  let query = db.selectFrom(auditLogResource.table).select(['ID', 'AT', 'AU_NAME', 'ACTION', 'RESOURCE', 'RECORD_NAME']);
  for (const term of parseOrderName(undefined, auditLogResource)) query = query.orderBy(term.column, term.direction);
  const rows = (await query.limit(DASHBOARD_LIST_SIZE).execute()) as { ID: number | string; AT: string; AU_NAME: string; ACTION: string; RESOURCE: string; RECORD_NAME: string }[];
  return rows.map((r) => ({
    Id: Number(r.ID),
    At: r.AT,
    AuName: r.AU_NAME,
    Action: r.ACTION,
    Resource: r.RESOURCE,
    ResourceLabel: AUDITED_RESOURCES[r.RESOURCE]?.label ?? r.RESOURCE,
    RecordName: r.RECORD_NAME,
  }));
}

async function storage(db: AnyDb, member: MemberRow): Promise<DashboardStorage[]> {
  const kinds = visibleFileKinds(toCurrentMember(member));
  const rows = (await db.selectFrom('FILE_USAGE').select(['KIND', 'FILES', 'BYTES', 'UNSIZED']).execute()) as {
    KIND: string;
    FILES: number | string;
    BYTES: number | string;
    UNSIZED: number | string;
  }[];
  return kinds.map((Kind) => {
    const r = rows.find((row) => row.KIND === Kind);
    return { Kind, Label: FILE_KIND_LABELS[Kind], Files: Number(r?.FILES ?? 0), Bytes: Number(r?.BYTES ?? 0), Unsized: Number(r?.UNSIZED ?? 0) };
  });
}

export default async function dashboardRoutes(app: FastifyInstance) {
  const tags = ['首页'];
  const db = () => app.database.db as unknown as AnyDb;
  // Answers that are the same for every member allowed, kept while the database is unchanged (as
  // the lists' are, crud.ts): exact, and a page shown again costs nothing.
  const kept = new VersionedCache<NonNullable<unknown>>({ maxEntries: 100 });
  const cached = async <T extends NonNullable<unknown>>(request: FastifyRequest, key: string, load: () => Promise<T>): Promise<T> =>
    (await kept.get(key, await request.dataVersion(), load)) as T;
  const figures = dailyFigures(app);
  // The days before today are summed once the server is up, not at the first call.
  app.addHook('onReady', async () => {
    void figures(db()).catch(() => undefined);
  });
  /** The member, when they may see the section; 403 otherwise. */
  const allowed = async (request: FastifyRequest, section: keyof DashboardSections): Promise<MemberRow> => {
    const member = await requireMember(request);
    if (!dashboardSections(toCurrentMember(member))[section]) throw forbidden(section === 'auditLog' ? '仅管理员可以查看操作日志' : undefined);
    return member;
  };

  readRoute(app, `/Ajax/${DASHBOARD_CALLS.counts}`, noParamsSchema, { tags, summary: '内容数量（按分类）' }, async (request) => {
    const member = await allowed(request, 'counts');
    return ok(await counts(db(), member));
  });
  readRoute(app, `/Ajax/${DASHBOARD_CALLS.daily}`, periodSchema, { tags, summary: '每日播放量与点赞数' }, async (request, params) => {
    await allowed(request, 'plays');
    return ok(daily(await figures(db()), period(app.config.timeZone, params.Days).days.length));
  });
  readRoute(app, `/Ajax/${DASHBOARD_CALLS.topVideos}`, periodSchema, { tags, summary: '播放最多的视频' }, async (request, params) => {
    await allowed(request, 'plays');
    return ok(await topVideos(db(), await figures(db()), period(app.config.timeZone, params.Days).days.length));
  });
  readRoute(app, `/Ajax/${DASHBOARD_CALLS.unwatchedVideos}`, periodSchema, { tags, summary: '无人观看的视频' }, async (request, params) => {
    await allowed(request, 'plays');
    const range = period(app.config.timeZone, params.Days);
    return ok(await cached(request, `unwatched ${range.from} ${range.to}`, () => unwatchedVideos(db(), range)));
  });
  readRoute(app, `/Ajax/${DASHBOARD_CALLS.comments}`, noParamsSchema, { tags, summary: '最新评论' }, async (request) => {
    await allowed(request, 'comments');
    return ok(await cached(request, 'comments', () => latestComments(db())));
  });
  readRoute(app, `/Ajax/${DASHBOARD_CALLS.auditLog}`, noParamsSchema, { tags, summary: '最近操作（仅管理员）' }, async (request) => {
    await allowed(request, 'auditLog');
    return ok(await cached(request, 'changes', () => latestChanges(db())));
  });
  readRoute(app, `/Ajax/${DASHBOARD_CALLS.storage}`, noParamsSchema, { tags, summary: '存储占用（按文件类型）' }, async (request) => {
    const member = await allowed(request, 'storage');
    return ok(await storage(db(), member));
  });
}
