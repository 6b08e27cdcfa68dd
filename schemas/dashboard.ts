// The start page (首页) as a dashboard: its calls, their answers, and which of its sections a member
// may see, one rule shared by the server (which refuses the others' calls) and the page (which shows
// only these). Special code: the figures of videos, their daily rows and comments, and the audit
// log are named here; the content types counted come from the descriptors (`homeCount`).
import { MENU_ENTRIES, RESOURCES, uploadModules, type MenuEntry } from './index';
import type { FileKind, ResourceDescriptor } from './descriptor';
import { canAccess, hasCode, type PermissionHolder } from './permissions';
import { videoCommentResource } from './videoComment';
import { videoDailyResource } from './videoDaily';
import { videoResource } from './video';

/** The periods the figures cover, in business days up to today. */
export const DASHBOARD_PERIODS = [30, 90] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

/** Rows of each list of the page (most watched, never watched, comments, changes). */
export const DASHBOARD_LIST_SIZE = 10;

/** The calls, each on /Ajax/. */
export const DASHBOARD_CALLS = {
  counts: 'GetDashboardCounts',
  daily: 'GetDashboardDaily',
  topVideos: 'GetDashboardTopVideos',
  unwatchedVideos: 'GetDashboardUnwatchedVideos',
  comments: 'GetDashboardComments',
  auditLog: 'GetDashboardAuditLog',
  storage: 'GetDashboardStorage',
} as const;

export const FILE_KIND_LABELS: Readonly<Record<FileKind, string>> = { video: '视频', handout: '讲义', image: '图片' };
export const FILE_KINDS = Object.keys(FILE_KIND_LABELS) as FileKind[];

/** One group of a content type's count: a value of its `homeCount.by` filter. */
export interface DashboardCountGroup {
  Value: string;
  Label: string;
  Count: number;
  /** The screen showing the group, when a menu entry shows just it (an article type's catalogue). */
  Link?: string;
}

export interface DashboardCount {
  Resource: string;
  Label: string;
  Total: number;
  /** The first menu screen of the type the member may view. */
  Link: string;
  Groups: DashboardCountGroup[];
}

export interface DashboardDay {
  /** A business day, YYYY-MM-DD. */
  Day: string;
  VdNum: number;
  VdFabulous: number;
}

export interface DashboardDaily {
  From: string;
  To: string;
  Days: DashboardDay[];
}

/** A video of the lists, with what its details page's link needs. */
export interface DashboardVideo {
  Id: number;
  VdCode: string;
  VdtCode: string;
  VdName: string;
  /** Plays and likes in the period (most watched). */
  VdNum?: number;
  VdFabulous?: number;
  VdTime?: string;
}

export interface DashboardTopVideos {
  /** Videos played at least once in the period, and videos in all. */
  Watched: number;
  Total: number;
  Rows: DashboardVideo[];
}

export interface DashboardComment {
  Id: number;
  /** The comment as plain text, cut. */
  Text: string;
  VmTime: string;
  AuName: string;
  Video: DashboardVideo;
}

export interface DashboardChange {
  Id: number;
  At: string;
  AuName: string;
  Action: string;
  Resource: string;
  /** The entity's name (视频, 常用网站…). */
  ResourceLabel: string;
  RecordName: string;
}

export interface DashboardStorage {
  Kind: FileKind;
  Label: string;
  Files: number;
  Bytes: number;
  /** Files among Files stored before sizes were kept: their bytes are not in Bytes. */
  Unsized: number;
}

/** The content types the start page counts, each with its menu entries, in menu order. */
export function countedTypes(resources: readonly ResourceDescriptor[] = RESOURCES): { descriptor: ResourceDescriptor; entries: MenuEntry[] }[] {
  const first = (entries: readonly MenuEntry[]) => entries[0]?.order ?? Number.MAX_SAFE_INTEGER;
  return resources
    .filter((d) => d.homeCount)
    .map((descriptor) => ({ descriptor, entries: MENU_ENTRIES.filter((e) => e.screen.resource === descriptor.resource) }))
    .sort((a, b) => first(a.entries) - first(b.entries));
}

/** Whether the member may view the screen of a menu entry (its module's view code; administrators' screens: administrators). */
export function mayViewEntry(member: PermissionHolder, entry: Pick<MenuEntry, 'module'>): boolean {
  return entry.module === 'admin' ? member.IsAdmin === 1 : hasCode(member, entry.module, '2');
}

/** The counted types the member may see: those with a menu screen they may view. */
export function visibleCountedTypes(member: PermissionHolder): { descriptor: ResourceDescriptor; entries: MenuEntry[] }[] {
  return countedTypes()
    .map(({ descriptor, entries }) => ({ descriptor, entries: entries.filter((e) => mayViewEntry(member, e)) }))
    .filter(({ entries }) => entries.length > 0);
}

/** Kinds of stored files whose totals the member may see: each held by records of a type they may list. */
export function visibleFileKinds(member: PermissionHolder): FileKind[] {
  return FILE_KINDS.filter((kind) =>
    RESOURCES.some((d) => uploadModules(kind, [d]).length > 0 && canAccess(member, { resource: d.resource, action: 'list' })),
  );
}

export interface DashboardSections {
  counts: boolean;
  /** Plays and likes per day, the most watched and the never watched videos. */
  plays: boolean;
  comments: boolean;
  auditLog: boolean;
  storage: boolean;
}

/** The sections of the start page the member may see, each the rule its calls are refused by. */
export function dashboardSections(member: PermissionHolder | null | undefined): DashboardSections {
  if (!member) return { counts: false, plays: false, comments: false, auditLog: false, storage: false };
  return {
    counts: visibleCountedTypes(member).length > 0,
    plays: canAccess(member, { resource: videoDailyResource.resource, action: 'list' }) && canAccess(member, { resource: videoResource.resource, action: 'list' }),
    comments: canAccess(member, { resource: videoCommentResource.resource, action: 'list' }),
    auditLog: member.IsAdmin === 1,
    storage: visibleFileKinds(member).length > 0,
  };
}

/** A bare day moved by whole days ('2026-03-01', -1 → '2026-02-28'). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The business days of a period ending today, oldest first. */
export function periodDays(today: string, period: number): string[] {
  return Array.from({ length: period }, (_, i) => addDays(today, i - period + 1));
}
