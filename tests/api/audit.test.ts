// The audit log (操作日志): every successful write by staff leaves exactly one entry saying who did
// what to which record and when; refused or failed writes and counters leave none; only
// administrators read it, filtered and paged; passwords never appear in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE, dayIn } from '../../schemas/businessTime';
import { ADMIN_PASSWORD, startServer, type Client, type TestServer } from '../helpers/server';

interface Change {
  field: string;
  label?: string;
  before?: unknown;
  after?: unknown;
  truncated?: boolean;
  redacted?: boolean;
  id?: number;
  name?: string;
}

interface Entry {
  Id: number;
  At: string;
  AuCode: string;
  AuName: string;
  Action: string;
  Resource: string;
  RecordId: number | null;
  RecordCode: string;
  RecordName: string;
  Changes: Change[];
}

const LIST = '/Ajax/GetAuditLogListInAdmin';

let server: TestServer;
let admin: Client;
/** A non-administrator allowed every write of every module. */
let staff: Client & { auName: string };
let staffCode: string;
let adminCode: string;
let adminName: string;

const ALL_CODES = '1,2,3,4,a';

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
  ({ AuCode: adminCode, AuName: adminName } = (await admin.call<{ AuCode: string; AuName: string }>('/Ajax/GetCurrentMember')).body.data);
  staff = await server.member({
    video: ALL_CODES,
    videoView: ALL_CODES,
    videoType: ALL_CODES,
    useweb: ALL_CODES,
    tykj: ALL_CODES,
    article: ALL_CODES,
    classify: ALL_CODES,
  });
  staffCode = (await staff.call<{ AuCode: string }>('/Ajax/GetCurrentMember')).body.data.AuCode;
});
afterAll(() => server?.close());

async function entries(params: Record<string, unknown> = {}) {
  const res = await admin.call<Entry[]>(LIST, { pageSize: 100, ...params });
  expect(res.status, res.body.msg).toBe(200);
  return res.body;
}

const newestId = async () => (await entries({ pageSize: 1 })).data[0]?.Id ?? 0;

/**
 * Runs a write and returns the entries it added (newest first), checking that the write
 * succeeded and that each new entry is stamped within the call.
 */
async function logged(write: () => Promise<{ status: number; body: { msg: string } }>): Promise<Entry[]> {
  const since = await newestId();
  const started = new Date(Date.now() - 1).toISOString();
  const res = await write();
  expect(res.status, res.body.msg).toBe(200);
  const ended = new Date(Date.now() + 1).toISOString();
  const added = (await entries()).data.filter((e) => e.Id > since);
  for (const e of added) {
    expect(e.At >= started && e.At <= ended, `${e.At} within the call`).toBe(true);
  }
  return added;
}

/** Exactly one entry from the write, returned. */
async function one(write: () => Promise<{ status: number; body: { msg: string } }>): Promise<Entry> {
  const added = await logged(write);
  expect(added).toHaveLength(1);
  return added[0]!;
}

/** A refused or failed call: its status as expected, and not one entry added. */
async function none(expected: number, write: () => Promise<{ status: number; body: { msg: string } }>) {
  const before = await entries({ pageSize: 1 });
  const res = await write();
  expect(res.status, res.body.msg).toBe(expected);
  const after = await entries({ pageSize: 1 });
  expect(after.total).toBe(before.total);
  expect(after.data[0]?.Id).toBe(before.data[0]?.Id);
}

const byStaff = (e: Entry) => expect({ AuCode: e.AuCode, AuName: e.AuName }).toEqual({ AuCode: staffCode, AuName: staff.auName });

describe('every write kind leaves exactly one entry', () => {
  it('video types: add, change (changed fields only, before → after), delete', async () => {
    let id = 0;
    const added = await one(async () => {
      const res = await staff.call<{ Id: number }>('/Ajax/AddVideoType', { VdtName: '审计分类', VdtSort: 3 });
      id = res.body.data.Id;
      return res;
    });
    byStaff(added);
    expect(added).toMatchObject({ Action: 'create', Resource: 'videoType', RecordId: id, RecordName: '审计分类' });
    expect(added.RecordCode).toMatch(/^[0-9a-f]{32}$/);
    expect(added.Changes).toEqual([
      { field: 'VdtName', after: '审计分类' },
      { field: 'VdtSort', after: 3 },
    ]);

    const changed = await one(() => staff.call('/Ajax/UpdateVideoType', { Id: id, VdtName: '审计分类改', VdtSort: 3 }));
    byStaff(changed);
    expect(changed).toMatchObject({ Action: 'update', Resource: 'videoType', RecordId: id, RecordName: '审计分类改' });
    expect(changed.Changes).toEqual([{ field: 'VdtName', before: '审计分类', after: '审计分类改' }]);

    const deleted = await one(() => staff.call('/Ajax/DelVideoType', { Id: id }));
    byStaff(deleted);
    expect(deleted).toMatchObject({ Action: 'delete', Resource: 'videoType', RecordId: id, RecordName: '审计分类改' });
    expect(deleted.Changes).toContainEqual({ field: 'VdtName', before: '审计分类改' });
  });

  it('videos and their comments; plays and likes are not logged', async () => {
    const type = (await staff.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '审计视频分类' })).body.data;
    let video = { Id: 0, VdCode: '' };
    const added = await one(async () => {
      const res = await staff.call<typeof video>('/Ajax/AddVideo', {
        VdtCode: type.VdtCode,
        VdName: '审计视频',
        VdUrl: 'https://media.example.com/a.mp4',
        VdEnclosure: JSON.stringify([{ name: '讲义.pdf', url: 'https://media.example.com/a.pdf' }]),
      });
      video = res.body.data;
      return res;
    });
    byStaff(added);
    expect(added).toMatchObject({ Action: 'create', Resource: 'video', RecordId: video.Id, RecordCode: video.VdCode, RecordName: '审计视频' });
    // A file list is kept as its file names; server-owned fields (code, counters, creator) are not kept.
    expect(added.Changes).toContainEqual({ field: 'VdEnclosure', after: ['讲义.pdf'] });
    expect(added.Changes.map((c) => c.field)).not.toEqual(expect.arrayContaining(['VdCode']));
    expect(added.Changes.map((c) => c.field)).not.toContain('VdNum');

    const changed = await one(() => staff.call('/Ajax/UpdateVideo', { Id: video.Id, IsTop: 1, VdPer: '王工' }));
    expect(changed.Changes).toEqual([
      { field: 'VdPer', before: '', after: '王工' },
      { field: 'IsTop', before: 0, after: 1 },
    ]);

    await none(200, () => staff.call('/Ajax/UpdateVideoNumAdd', { Id: video.Id }));
    await none(200, () => staff.call('/Ajax/UpdateVideoFabulousAdd', { Id: video.Id }));

    let commentId = 0;
    const comment = await one(async () => {
      const res = await staff.call<{ Id: number }>('/Ajax/AddVideoMessage', { VdCode: video.VdCode, VmDes: '<p>很有<b>帮助</b></p>' });
      commentId = res.body.data.Id;
      return res;
    });
    byStaff(comment);
    expect(comment).toMatchObject({ Action: 'create', Resource: 'videoComment', RecordId: commentId, RecordName: '很有帮助' });
    expect(comment.Changes).toContainEqual({ field: 'VmDes', after: '很有帮助' });

    const removed = await one(() => staff.call('/Ajax/DelVideoMessage', { Id: commentId }));
    expect(removed).toMatchObject({ Action: 'delete', Resource: 'videoComment', RecordId: commentId });

    // A deleted video takes its comments along in its one entry.
    await staff.call('/Ajax/AddVideoMessage', { VdCode: video.VdCode, VmDes: '一' });
    await staff.call('/Ajax/AddVideoMessage', { VdCode: video.VdCode, VmDes: '二' });
    const deleted = await one(() => staff.call('/Ajax/DelVideo', { Id: video.Id }));
    expect(deleted).toMatchObject({ Action: 'delete', Resource: 'video', RecordId: video.Id, RecordName: '审计视频' });
    expect(deleted.Changes).toContainEqual({ field: 'videoComment', label: '随之删除的视频评论', before: 2 });
  });

  it('websites: add, change, delete, and one entry for a drag sort listing what moved', async () => {
    const ids: number[] = [];
    for (const name of ['审计站甲', '审计站乙']) {
      const e = await one(async () => {
        const res = await staff.call<{ Id: number }>('/Ajax/AddUseweb', { UwName: name, UwUrl: 'https://e.com' });
        ids.push(res.body.data.Id);
        return res;
      });
      expect(e).toMatchObject({ Action: 'create', Resource: 'useweb', RecordName: name, RecordCode: '' });
    }
    const sites = (await admin.call<{ Id: number; UwName: string; UwSort: number }[]>('/Ajax/GetUsewebListInAdmin', { All: 1 })).body.data;
    const sortOf = (id: number) => sites.find((s) => s.Id === id)!.UwSort;
    const [a, b] = ids as [number, number];
    const sorted = await one(() =>
      staff.call('/Ajax/UpdateUsewebSort', { modelList: [{ Id: a, UwSort: sortOf(b) }, { Id: b, UwSort: sortOf(a) }] }),
    );
    byStaff(sorted);
    expect(sorted).toMatchObject({ Action: 'sort', Resource: 'useweb', RecordId: null, RecordName: '网站排序' });
    expect(sorted.Changes).toEqual([
      { field: 'UwSort', id: a, name: '审计站甲', before: sortOf(a), after: sortOf(b) },
      { field: 'UwSort', id: b, name: '审计站乙', before: sortOf(b), after: sortOf(a) },
    ]);
    const changed = await one(() => staff.call('/Ajax/UpdateUseweb', { Id: a, UwUrl: 'https://f.com' }));
    expect(changed.Changes).toEqual([{ field: 'UwUrl', before: 'https://e.com', after: 'https://f.com' }]);
    const deleted = await one(() => staff.call('/Ajax/DelUseweb', { Id: b }));
    expect(deleted).toMatchObject({ Action: 'delete', Resource: 'useweb', RecordId: b, RecordName: '审计站乙' });
  });

  for (const [service, classifyResource, articleResource] of [
    ['Xcx1', 'classify', 'article'],
    ['Xcx3', 'tykjClassify', 'tykjArticle'],
  ] as const) {
    it(`${service}: classifications and articles, long rich text kept as a short plain excerpt`, async () => {
      let classify = { Id: 0, ScCode: '' };
      const c = await one(async () => {
        const res = await staff.call<typeof classify>(`/${service}/CreateStandardClassifyInAdmin`, { ScName: `${service}审计分类`, type: 0 });
        classify = res.body.data;
        return res;
      });
      byStaff(c);
      expect(c).toMatchObject({ Action: 'create', Resource: classifyResource, RecordId: classify.Id, RecordCode: classify.ScCode });
      const renamed = await one(() => staff.call(`/${service}/UpdateStandardClassifyInAdmin`, { Id: classify.Id, ScName: `${service}分类改` }));
      expect(renamed).toMatchObject({ Action: 'update', Resource: classifyResource, RecordName: `${service}分类改` });
      expect(renamed.Changes).toEqual([{ field: 'ScName', before: `${service}审计分类`, after: `${service}分类改` }]);

      let article = { Id: 0, SaCode: '' };
      const long = `<p>${'很长的正文'.repeat(300)}</p>`;
      const a = await one(async () => {
        const res = await staff.call<typeof article>(`/${service}/AddStandardArticleInAdmin`, {
          ScCode: classify.ScCode,
          SaName: `${service}审计文章`,
          SaPdfContent: long,
        });
        article = res.body.data;
        return res;
      });
      byStaff(a);
      expect(a).toMatchObject({ Action: 'create', Resource: articleResource, RecordId: article.Id, RecordName: `${service}审计文章` });
      const content = a.Changes.find((ch) => ch.field === 'SaPdfContent')!;
      expect(content.truncated).toBe(true);
      expect(String(content.after)).not.toContain('<');
      expect([...String(content.after)].length).toBeLessThanOrEqual(201);
      expect(String(content.after).startsWith('很长的正文很长的正文')).toBe(true);

      const edited = await one(() =>
        staff.call(`/${service}/UpdateStandardArticleInAdmin`, { Id: article.Id, SaPdfContent: '<p>短<i>正文</i></p>' }),
      );
      expect(edited.Changes).toHaveLength(1);
      expect(edited.Changes[0]).toMatchObject({ field: 'SaPdfContent', after: '短正文', truncated: true });

      const gone = await one(() => staff.call(`/${service}/DelStandardArticleInAdmin`, { Id: article.Id }));
      expect(gone).toMatchObject({ Action: 'delete', Resource: articleResource, RecordId: article.Id });
      const goneClassify = await one(() => staff.call(`/${service}/DeleteStandardClassifyInAdmin`, { Id: classify.Id }));
      expect(goneClassify).toMatchObject({ Action: 'delete', Resource: classifyResource, RecordId: classify.Id });
    });
  }

  it('members: add, change, delete by an administrator, passwords only as "changed"', async () => {
    const secret = 'Very-Secret-Pass-4821';
    const newSecret = 'Other-Secret-Pass-9313';
    let id = 0;
    const added = await one(async () => {
      const res = await admin.call<{ Id: number }>('/Ajax/AddMember', {
        UserName: 'audit_member',
        AuName: '审计成员',
        Password: secret,
        Modules: { video: '2' },
      });
      id = res.body.data.Id;
      return res;
    });
    expect(added).toMatchObject({ AuCode: adminCode, AuName: adminName, Action: 'create', Resource: 'member', RecordId: id });
    expect(added.RecordName).toBe('审计成员 (audit_member)');
    expect(added.Changes).toContainEqual({ field: 'Modules', after: { video: '2' } });

    const changed = await one(() =>
      admin.call('/Ajax/UpdateMember', { Id: id, Password: newSecret, Modules: { video: '2', useweb: '2' } }),
    );
    expect(changed.Changes).toEqual([
      { field: 'Modules', before: { video: '2' }, after: { video: '2', useweb: '2' } },
      { field: 'Password', redacted: true },
    ]);
    const deleted = await one(() => admin.call('/Ajax/DelMember', { Id: id }));
    expect(deleted).toMatchObject({ Action: 'delete', Resource: 'member', RecordId: id, RecordName: '审计成员 (audit_member)' });

    // Nowhere in the whole log: neither the passwords nor any hash.
    const text = JSON.stringify((await entries({ All: 1 })).data);
    for (const word of [secret, newSecret, ADMIN_PASSWORD, 'password-123', 'scrypt$', 'PASSWORD_HASH']) expect(text).not.toContain(word);
  });
});

describe('refused and failed writes leave no entry', () => {
  it('without permission, invalid, conflicting, unknown or rolled back', async () => {
    const viewer = await server.member({ videoType: '2', useweb: '2' });
    await none(403, () => viewer.call('/Ajax/AddVideoType', { VdtName: '不许' }));
    await none(403, () => viewer.call('/Ajax/AddMember', { UserName: 'nope_x', AuName: 'x', Password: 'password-123' }));
    await none(400, () => staff.call('/Ajax/AddUseweb', { UwName: 'x', UwUrl: 'javascript:alert(1)' }));
    await none(404, () => staff.call('/Ajax/UpdateVideoType', { Id: 999999, VdtName: 'x' }));
    await none(404, () => staff.call('/Ajax/DelUseweb', { Id: 999999 }));
    const parent = (await staff.call<{ Id: number; ScCode: string }>('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '父', type: 1 })).body.data;
    await staff.call('/Xcx1/CreateStandardClassifyInAdmin', { ScName: '子', ScFatherCode: parent.ScCode });
    await none(409, () => staff.call('/Xcx1/DeleteStandardClassifyInAdmin', { Id: parent.Id }));
    await none(400, () => admin.call('/Ajax/DelMember', { Id: 1 }));
    // A sort with one unknown website rolls back the whole sort, its entry included.
    const site = (await staff.call<{ Id: number }>('/Ajax/AddUseweb', { UwName: '回滚站', UwUrl: 'https://e.com' })).body.data;
    await none(404, () => staff.call('/Ajax/UpdateUsewebSort', { modelList: [{ Id: site.Id, UwSort: 7 }, { Id: 999999, UwSort: 8 }] }));
  });
});

describe('reading the log', () => {
  it('is for administrators only', async () => {
    const res = await staff.call(LIST, {});
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 403, msg: '仅管理员可以执行此操作' });
    expect((await staff.get(LIST)).status).toBe(403);
    expect((await server.client().call(LIST, {})).status).toBe(401);
  });

  it('offers no call that changes or deletes an entry', async () => {
    for (const call of ['AddAuditLog', 'UpdateAuditLog', 'DelAuditLog', 'DeleteAuditLogInAdmin']) {
      expect((await admin.call(`/Ajax/${call}`, { Id: 1 })).status).toBe(404);
    }
  });

  it('lists newest first, pages with a total, over GET and POST', async () => {
    const all = (await entries({ All: 1 })).data;
    expect(all.length).toBeGreaterThan(20);
    for (let i = 1; i < all.length; i++) {
      const [newer, older] = [all[i - 1]!, all[i]!];
      expect(newer.At > older.At || (newer.At === older.At && newer.Id > older.Id)).toBe(true);
    }
    const first = await entries({ pageIndex: 1, pageSize: 5 });
    const second = await entries({ pageIndex: 2, pageSize: 5 });
    expect(first.total).toBe(all.length);
    expect(first.data.map((e) => e.Id)).toEqual(all.slice(0, 5).map((e) => e.Id));
    expect(second.data.map((e) => e.Id)).toEqual(all.slice(5, 10).map((e) => e.Id));
    const viaGet = await admin.get<Entry[]>(LIST, { pageIndex: 2, pageSize: 5 });
    expect(viaGet.body.data.map((e) => e.Id)).toEqual(second.data.map((e) => e.Id));
  });

  it('filters by resource, action, member, record name and time range', async () => {
    const all = (await entries({ All: 1 })).data;
    const check = async (params: Record<string, unknown>, keep: (e: Entry) => boolean) => {
      const expected = all.filter(keep).map((e) => e.Id);
      expect(expected.length, JSON.stringify(params)).toBeGreaterThan(0);
      const res = await entries({ All: 1, ...params });
      expect(res.data.map((e) => e.Id), JSON.stringify(params)).toEqual(expected);
    };
    await check({ Resource: 'videoType' }, (e) => e.Resource === 'videoType');
    await check({ Resource: 'tykjArticle' }, (e) => e.Resource === 'tykjArticle');
    await check({ Action: 'sort' }, (e) => e.Action === 'sort');
    await check({ Action: 'delete', Resource: 'member' }, (e) => e.Action === 'delete' && e.Resource === 'member');
    await check({ AuCode: staffCode }, (e) => e.AuCode === staffCode);
    await check({ AuCode: adminCode, Action: 'create' }, (e) => e.AuCode === adminCode && e.Action === 'create');
    await check({ RecordName: '审计站' }, (e) => e.RecordName.includes('审计站'));
    await check({ RecordName: 'AUDIT_MEMBER' }, (e) => e.RecordName.includes('audit_member'));
    // A day of the range is the business time zone's (the server's default), not UTC's.
    const today = dayIn(DEFAULT_TIME_ZONE);
    await check({ AtFrom: today, AtTo: today }, () => true);
    const middle = all[Math.floor(all.length / 2)]!;
    await check({ AtFrom: middle.At }, (e) => e.At >= middle.At);
    await check({ AtTo: middle.At }, (e) => e.At <= middle.At);
    const tomorrow = dayIn(DEFAULT_TIME_ZONE, Date.now() + 86_400_000);
    expect((await entries({ AtFrom: tomorrow })).total).toBe(0);
    // Open-ended ranges at the ends of the calendar: the day after 9999-12-31 is past what a
    // stored time can be, not a text that sorts before every entry.
    await check({ AtTo: '9999-12-31' }, () => true);
    await check({ AtFrom: '0000-01-01', AtTo: '9999-12-31T23:59:59Z' }, () => true);
    await check({ AtTo: '9999-12-31T23:00:00-05:00' }, () => true);
    expect((await entries({ AtFrom: '9999-12-31T23:00:00-05:00' })).total).toBe(0);
    expect((await entries({ AtTo: '0000-01-01T00:00:00+05:00' })).total).toBe(0);
    expect((await entries({ Resource: 'video', RecordName: '没有这个名字' })).total).toBe(0);
    // A paged filtered list counts only the matching entries.
    const paged = await entries({ Resource: 'useweb', pageSize: 2 });
    expect(paged.total).toBe(all.filter((e) => e.Resource === 'useweb').length);
    expect(paged.data).toHaveLength(2);
  });

  it('refuses malformed filters with a Chinese field error', async () => {
    for (const [params, field] of [
      [{ Resource: 'nothing' }, 'Resource'],
      [{ Action: 'drop' }, 'Action'],
      [{ AtFrom: 'yesterday' }, 'AtFrom'],
      [{ AtTo: '2026-13-45' }, 'AtTo'],
      [{ AtFrom: '2026-02-01', AtTo: '2026-01-01' }, 'AtTo'],
      [{ AtFrom: '2026-01-02', AtTo: '2026-01-01' }, 'AtTo'],
      [{ pageSize: 1000 }, 'pageSize'],
      [{ OrderName: 'PASSWORD_HASH DESC' }, 'OrderName'],
    ] as const) {
      const res = await admin.call(LIST, params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.code).toBe(400);
      expect(res.body.msg).toMatch(/[\u4e00-\u9fa5]/);
      expect(res.body.errors?.[0]?.field, JSON.stringify(params)).toBe(field);
    }
  });
});
