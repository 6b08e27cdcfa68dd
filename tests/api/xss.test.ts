// The XSS corpus (tests/helpers/xssCorpus.ts) through the API (Hardening 3): every rich-text field
// (schema properties with contentMediaType text/html) stores each payload sanitised, inert when a
// browser parses it, and unchanged by sanitising again; good content (Chinese, bold, lists) comes
// back as it was. Every link field (http(s) links, stored-file URLs, file lists) refuses every
// hostile URL with a Chinese message and changes nothing. The fields are found from the schemas and
// written through their descriptors' calls, in records made from the schemas (tests/helpers/records.ts),
// so a new one is covered as it is declared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_URL_PATTERN, HTTP_URL_PATTERN, OPTIONAL_FILE_URL_PATTERN, RESOURCES, richTextFields, type ResourceDescriptor } from '../../schemas/index';
import { sanitizeRichText } from '../../server/src/richText';
import { GOOD_RICH_TEXT, HOSTILE_URLS, inertnessProblems, XSS_PAYLOADS } from '../helpers/xssCorpus';
import { Records } from '../helpers/records';
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
let records: Records;

const descriptorOf = (resource: string) => RESOURCES.find((d) => d.resource === resource)!;

/** The calls that write a resource. */
interface Writer {
  service: ResourceDescriptor['service'];
  create?: string;
  update?: string;
}

/** Every resource holding a rich-text or link field, with its calls. */
const WRITERS: Record<string, Writer> = Object.fromEntries(
  [...new Set([...RICH_TEXT, ...LINKS].map((key) => key.split('.')[0]!))].map((resource) => {
    const d = descriptorOf(resource);
    return [resource, { service: d.service, create: d.calls.create, update: d.calls.update }];
  }),
);

async function create(resource: string, fields: Record<string, string>) {
  return records.create(descriptorOf(resource), fields);
}

const read = (resource: string, created: Record<string, unknown>) => records.read(descriptorOf(resource), created);

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
  records = new Records(server, admin);
});
afterAll(() => server?.close());

describe('the fields under test, found from the schemas', () => {
  it('are every rich-text and link field, each with a way to write it', () => {
    // Found by a second route: the helper the upload rules use.
    expect([...RICH_TEXT].sort()).toEqual(RESOURCES.flatMap((d) => richTextFields(d).map((f) => `${d.resource}.${f}`)).sort());
    expect(RICH_TEXT.length).toBeGreaterThanOrEqual(7);
    expect(LINKS.length).toBeGreaterThanOrEqual(9);
    for (const key of [...RICH_TEXT, ...LINKS]) expect(WRITERS[key.split('.')[0]!]?.create, key).toBeDefined();
    // A link field is checked on update too.
    for (const key of LINKS) expect(WRITERS[key.split('.')[0]!]?.update, key).toBeDefined();
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
    const stored = await read(resource, res.body.data);
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
      const again = await read(resource, res.body.data);
      for (const field of fields) expect(inertnessProblems(String(again[field])), field).toEqual([]);
    }
  });

  it('keeps Chinese text, bold and lists unchanged', async () => {
    const res = await create(resource, Object.fromEntries(fields.map((f) => [f, GOOD_RICH_TEXT])));
    const stored = await read(resource, res.body.data);
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
    const before = await read(resource, good.body.data);
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
    expect(await read(resource, good.body.data)).toEqual(before);
  });
});
