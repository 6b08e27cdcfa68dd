// The XSS corpus (tests/helpers/xssCorpus.ts) through the API (Hardening 3): every rich-text field
// (schema properties with contentMediaType text/html) stores each payload sanitised, inert when a
// browser parses it, and unchanged by sanitising again; good content (Chinese, bold, lists) comes
// back as it was. Every link field (http(s) links, stored-file URLs, file lists) refuses every
// hostile URL with a Chinese message and changes nothing. The fields are found from the schemas, so
// a new one fails here until it is covered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_URL_PATTERN, HTTP_URL_PATTERN, OPTIONAL_FILE_URL_PATTERN, RESOURCES, type ResourceDescriptor } from '../../schemas/index';
import { sanitizeRichText } from '../../server/src/richText';
import { GOOD_RICH_TEXT, HOSTILE_URLS, inertnessProblems, XSS_PAYLOADS } from '../helpers/xssCorpus';
import { startServer, type Client, type TestServer } from '../helpers/server';

type Props = Record<string, { contentMediaType?: string; pattern?: string; readOnly?: boolean }>;
const propsOf = (d: ResourceDescriptor) => (d.schema as { properties: Props }).properties;

const RICH_TEXT = RESOURCES.flatMap((d) =>
  Object.entries(propsOf(d))
    .filter(([, p]) => p.contentMediaType === 'text/html')
    .map(([field]) => `${d.resource}.${field}`),
);
const LINK_PATTERNS = new Set<string>([HTTP_URL_PATTERN, FILE_URL_PATTERN, OPTIONAL_FILE_URL_PATTERN]);
const LINKS = RESOURCES.flatMap((d) =>
  Object.entries(propsOf(d))
    .filter(([, p]) => !p.readOnly && ((p.pattern && LINK_PATTERNS.has(p.pattern)) || p.contentMediaType === 'application/json'))
    .map(([field]) => `${d.resource}.${field}`),
);

let server: TestServer;
let admin: Client;
let vdtCode = '';
let vdCode = '';
const classify: Record<'Xcx1' | 'Xcx3', string> = { Xcx1: '', Xcx3: '' };

interface Writer {
  service: 'Ajax' | 'Xcx1' | 'Xcx3';
  /** A valid record of the resource with `fields` set. */
  body(fields: Record<string, string>): Record<string, unknown>;
  create: string;
  update?: string;
  /** Reads the stored record back by the data the create call answered. */
  read(created: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const article = (service: 'Xcx1' | 'Xcx3'): Writer => ({
  service,
  body: (fields) => ({ ScCode: classify[service], SaType: 1, SaName: `文章${Math.random()}`, ...fields }),
  create: 'AddStandardArticleInAdmin',
  update: 'UpdateStandardArticleInAdmin',
  read: async (created) =>
    (await admin.get<Record<string, unknown>>(`/${service}/GetStandardArticleInfoInAdmin`, { Code: String(created.SaCode) })).body.data,
});

const classifyWriter = (service: 'Xcx1' | 'Xcx3'): Writer => ({
  service,
  body: (fields) => ({ ScName: `分类${Math.random()}`, ...fields }),
  create: 'CreateStandardClassifyInAdmin',
  update: 'UpdateStandardClassifyInAdmin',
  read: async (created) => {
    const list = await admin.call<Record<string, unknown>[]>(`/${service}/GetStandardClassifyListInAdmin`, { All: 1, type: 0 });
    return list.body.data.find((r) => r.ScCode === created.ScCode) ?? {};
  },
});

/** How to write each resource that holds a rich-text or link field. */
const WRITERS: Record<string, Writer> = {
  videoComment: {
    service: 'Ajax',
    body: (fields) => ({ VdCode: vdCode, VmDes: '<p>评论</p>', ...fields }),
    create: 'AddVideoMessage',
    read: async (created) => {
      const list = await admin.call<Record<string, unknown>[]>('/Ajax/GetVideoMessageListInAdmin', { All: 1, VdCode: vdCode });
      return list.body.data.find((r) => r.Id === created.Id) ?? {};
    },
  },
  video: {
    service: 'Ajax',
    body: (fields) => ({ VdtCode: vdtCode, VdName: `视频${Math.random()}`, VdUrl: 'https://media.example.com/a.mp4', ...fields }),
    create: 'AddVideo',
    update: 'UpdateVideo',
    read: async (created) => (await admin.get<Record<string, unknown>>('/Ajax/GetSingleVideoInAdmin', { Id: Number(created.Id) })).body.data,
  },
  useweb: {
    service: 'Ajax',
    body: (fields) => ({ UwName: `网站${Math.random()}`, UwUrl: 'https://www.gov.cn/', ...fields }),
    create: 'AddUseweb',
    update: 'UpdateUseweb',
    read: async (created) => {
      const list = await admin.call<Record<string, unknown>[]>('/Ajax/GetUsewebListInAdmin', { All: 1 });
      return list.body.data.find((r) => r.Id === created.Id) ?? {};
    },
  },
  article: article('Xcx1'),
  tykjArticle: article('Xcx3'),
  classify: classifyWriter('Xcx1'),
  tykjClassify: classifyWriter('Xcx3'),
};

async function create(resource: string, fields: Record<string, string>) {
  const w = WRITERS[resource]!;
  return admin.call<Record<string, unknown>>(`/${w.service}/${w.create}`, w.body(fields));
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
  vdtCode = (await admin.call<{ VdtCode: string }>('/Ajax/AddVideoType', { VdtName: '安全', VdtSort: 1 })).body.data.VdtCode;
  vdCode = (await create('video', {})).body.data.VdCode as string;
  for (const service of ['Xcx1', 'Xcx3'] as const) {
    classify[service] = (
      await admin.call<{ ScCode: string }>(`/${service}/CreateStandardClassifyInAdmin`, { ScName: '安全分类', type: 1 })
    ).body.data.ScCode;
  }
});
afterAll(() => server?.close());

describe('the fields under test, found from the schemas', () => {
  it('are every rich-text and link field, each with a way to write it', () => {
    expect(RICH_TEXT.sort()).toEqual(
      ['article.SaAnswer', 'article.SaPdfContent', 'article.SaProblem', 'tykjArticle.SaAnswer', 'tykjArticle.SaPdfContent', 'tykjArticle.SaProblem', 'videoComment.VmDes'].sort(),
    );
    expect(LINKS.length).toBeGreaterThanOrEqual(9);
    for (const key of [...RICH_TEXT, ...LINKS]) expect(WRITERS[key.split('.')[0]!], key).toBeDefined();
  });
});

// Rich-text fields grouped by resource: one record per payload carries it in all of the
// resource's rich-text fields at once.
const richByResource = new Map<string, string[]>();
for (const key of RICH_TEXT) {
  const [resource, field] = key.split('.') as [string, string];
  richByResource.set(resource, [...(richByResource.get(resource) ?? []), field]);
}

describe.each([...richByResource])('rich text of %s', (resource, fields) => {
  it.each(XSS_PAYLOADS.map((p) => [p.id, p.html] as const))('stores %s sanitised, inert and stable', async (_id, html) => {
    const withText = `<p>正文</p>${html}`;
    const res = await create(resource, Object.fromEntries(fields.map((f) => [f, withText])));
    expect(res.status, res.body.msg).toBe(200);
    const stored = await WRITERS[resource]!.read(res.body.data);
    for (const field of fields) {
      const value = String(stored[field]);
      expect(value, field).toContain('正文');
      expect(inertnessProblems(value), `${field}: ${value}`).toEqual([]);
      expect(value, `${field} is not stable under sanitising again`).toBe(await sanitizeRichText(value));
    }
    const w = WRITERS[resource]!;
    if (w.update) {
      // The same through an update of an existing record.
      const upd = await admin.call(`/${w.service}/${w.update}`, { Id: res.body.data.Id, ...Object.fromEntries(fields.map((f) => [f, html])) });
      expect(upd.status).toBe(200);
      const again = await w.read(res.body.data);
      for (const field of fields) expect(inertnessProblems(String(again[field])), field).toEqual([]);
    }
  });

  it('keeps Chinese text, bold and lists unchanged', async () => {
    const res = await create(resource, Object.fromEntries(fields.map((f) => [f, GOOD_RICH_TEXT])));
    const stored = await WRITERS[resource]!.read(res.body.data);
    for (const field of fields) expect(stored[field], field).toBe(GOOD_RICH_TEXT);
  });
});

/** A hostile URL in the shape the field takes (a file list holds it in an entry). */
function linkValue(key: string, url: string): string {
  const [resource, field] = key.split('.') as [string, string];
  const schema = propsOf(RESOURCES.find((d) => d.resource === resource)!)[field]!;
  return schema.contentMediaType === 'application/json' ? JSON.stringify([{ name: '讲义.pdf', url }]) : url;
}

describe.each(LINKS)('link field %s', (key) => {
  const [resource, field] = key.split('.') as [string, string];

  it(`refuses each of the ${HOSTILE_URLS.length} hostile URLs on create and update, changing nothing`, async () => {
    const w = WRITERS[resource]!;
    const good = await create(resource, {});
    expect(good.status, good.body.msg).toBe(200);
    const before = await w.read(good.body.data);
    for (const url of HOSTILE_URLS) {
      const created = await create(resource, { [field]: linkValue(key, url) });
      expect(created.status, url).toBe(400);
      expect(created.body.code).toBe(400);
      expect(created.body.msg, url).toMatch(/[\u4e00-\u9fa5]/);
      expect(created.body.errors?.map((e) => e.field), url).toContain(field);
      const updated = await admin.call(`/${w.service}/${w.update}`, { Id: good.body.data.Id, [field]: linkValue(key, url) });
      expect(updated.status, url).toBe(400);
      expect(updated.body.errors?.map((e) => e.field), url).toContain(field);
    }
    expect(await w.read(good.body.data)).toEqual(before);
  });
});
