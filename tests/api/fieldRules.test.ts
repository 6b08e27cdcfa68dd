// Field rules the server reads from the schemas: plain text is trimmed before it is checked, so a
// required field of spaces is 必填 and nothing is stored; sorts, dates and links keep to the
// limits the schema states; a field's own required message comes from its declaration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoSchema } from '../../schemas/video';
import { videoTypeSchema } from '../../schemas/videoType';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;
let typeCode: string;

interface VideoType {
  Id: number;
  VdtCode: string;
  VdtName: string;
  VdtSort: number;
}

const typeNames = async () =>
  (await admin.call<VideoType[]>('/Ajax/GetVideoTypeListInAdmin', { All: 1 })).body.data.map((t) => t.VdtName);

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
  typeCode = (await admin.call<VideoType>('/Ajax/AddVideoType', { VdtName: '规则分类', VdtSort: 1 })).body.data.VdtCode;
});
afterAll(() => server?.close());

describe('trimming', () => {
  it('refuses a name of spaces with 必填 and stores nothing', async () => {
    const before = await typeNames();
    const res = await admin.call('/Ajax/AddVideoType', { VdtName: '   ', VdtSort: 1 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'VdtName', msg: '必填' }]);
    expect(await typeNames()).toEqual(before);
  });

  it('stores a name without its surrounding spaces, on add and on update', async () => {
    const added = await admin.call<VideoType>('/Ajax/AddVideoType', { VdtName: '  名  ', VdtSort: 2 });
    expect(added.status).toBe(200);
    expect(added.body.data.VdtName).toBe('名');
    const updated = await admin.call<VideoType>('/Ajax/UpdateVideoType', { Id: added.body.data.Id, VdtName: '\t新名 \n' });
    expect(updated.body.data.VdtName).toBe('新名');
    expect(await typeNames()).toContain('新名');
  });

  it('refuses blanking a required field on update, keeping the stored name', async () => {
    const added = await admin.call<VideoType>('/Ajax/AddVideoType', { VdtName: '保留', VdtSort: 3 });
    const res = await admin.call('/Ajax/UpdateVideoType', { Id: added.body.data.Id, VdtName: '  ' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'VdtName', msg: '必填' }]);
    expect(await typeNames()).toContain('保留');
  });

  it('trims a link and a member name, but never a password', async () => {
    const site = await admin.call<{ UwUrl: string; UwName: string }>('/Ajax/AddUseweb', { UwName: ' 网站 ', UwUrl: ' https://e.com/a ' });
    expect(site.body.data).toMatchObject({ UwName: '网站', UwUrl: 'https://e.com/a' });
    const member = await admin.call<{ AuName: string; UserName: string }>('/Ajax/AddMember', {
      UserName: ' trimmed.user ',
      AuName: ' 张三 ',
      Password: ' secret ',
      Modules: {},
    });
    expect(member.body.data).toMatchObject({ UserName: 'trimmed.user', AuName: '张三' });
    const login = await fetch(`${server.url}/Ajax/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: 'trimmed.user', Password: ' secret ' }),
    });
    expect(((await login.json()) as { code: number }).code).toBe(0);
  });

  it('gives a required field of spaces its declared message (VdUrl: 请上传视频!)', async () => {
    const res = await admin.call('/Ajax/AddVideo', { VdtCode: typeCode, VdName: '视频', VdUrl: '   ' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: 'VdUrl', msg: videoSchema.properties.VdUrl.requiredMessage });
    expect(videoSchema.properties.VdUrl.requiredMessage).toBe('请上传视频!');
  });
});

describe('limits from the schema', () => {
  const { minimum, maximum } = videoTypeSchema.properties.VdtSort;

  it('keeps 排序 within its range', async () => {
    for (const [VdtSort, msg] of [
      [minimum - 1, `不能小于${minimum}`],
      [1e9, `不能大于${maximum}`],
    ] as const) {
      const res = await admin.call('/Ajax/AddVideoType', { VdtName: `排序${VdtSort}`, VdtSort });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'VdtSort', msg }]);
    }
    expect((await admin.call('/Ajax/AddVideoType', { VdtName: '排序上限', VdtSort: maximum })).status).toBe(200);
    expect((await typeNames()).filter((n) => n.startsWith('排序'))).toEqual(['排序上限']);
  });

  it('keeps dates within the declared range', async () => {
    const { formatMinimum, formatMaximum } = videoSchema.properties.VdTime;
    const video = (VdTime: string) => ({ VdtCode: typeCode, VdName: `日期${VdTime}`, VdTime, VdUrl: 'https://media.example.com/a.mp4' });
    const early = await admin.call('/Ajax/AddVideo', video('1900-01-01'));
    expect(early.status).toBe(400);
    expect(early.body.errors).toEqual([{ field: 'VdTime', msg: `不能早于${formatMinimum}` }]);
    const late = await admin.call('/Ajax/AddVideo', video('2100-01-01'));
    expect(late.body.errors).toEqual([{ field: 'VdTime', msg: `不能晚于${formatMaximum}` }]);
    expect((await admin.call('/Ajax/AddVideo', video(formatMinimum))).status).toBe(200);
    expect((await admin.call('/Ajax/AddVideo', video(formatMaximum))).status).toBe(200);
  });

  it('refuses a name over its length and a link without a scheme, with Chinese messages', async () => {
    const long = await admin.call('/Ajax/AddVideoType', { VdtName: '长'.repeat(400), VdtSort: 1 });
    expect(long.body.errors).toEqual([{ field: 'VdtName', msg: `不能超过${videoTypeSchema.properties.VdtName.maxLength}个字符` }]);
    const link = await admin.call('/Ajax/AddUseweb', { UwName: '无协议', UwUrl: 'www.example.com' });
    expect(link.status).toBe(400);
    expect(link.body.errors).toEqual([{ field: 'UwUrl', msg: '请输入以 http:// 或 https:// 开头的链接' }]);
  });
});
