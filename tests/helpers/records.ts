// Valid records of any resource, made from its descriptor alone: the API tests that go over every
// resource (xss.test.ts, permissions.test.ts) write and read them without naming an entity. A
// reference is filled with a record of its resource, made once by the administrator.
import {
  FILE_URL_PATTERN,
  HTTP_URL_PATTERN,
  OPTIONAL_FILE_URL_PATTERN,
  resourceByName,
  toColumn,
  type ResourceDescriptor,
} from '../../schemas/index';
import { insertRow } from '../../server/src/db/repository';
import type { CallResult, Client, TestServer } from './server';

export type Values = Record<string, unknown>;

interface FieldSchema {
  type?: unknown;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  contentMediaType?: string;
  readOnly?: boolean;
  default?: unknown;
}

const LINK_PATTERNS = new Set<string>([HTTP_URL_PATTERN, FILE_URL_PATTERN, OPTIONAL_FILE_URL_PATTERN]);

let counter = 0;

/** A valid value of a field, by its schema: distinct on each call where the field is text. */
export function sampleValue(field: string, schema: FieldSchema): unknown {
  const n = ++counter;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (schema.enum) return schema.enum[0];
  if (type === 'integer' || type === 'number') {
    if (typeof schema.default === 'number') return schema.default;
    return Math.min(Math.max(0, schema.minimum ?? 0), schema.maximum ?? Number.MAX_SAFE_INTEGER);
  }
  if (type !== 'string') throw new Error(`no sample value for ${field} (type ${String(type)})`);
  // A different day each time: a day may be one of fields declared unique together (a video's day).
  if (schema.format === 'date') return new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
  if (schema.contentMediaType === 'text/html') return `<p>样例${n}</p>`;
  if (schema.contentMediaType === 'application/json') return '[]';
  // Another site's file: the server keeps it as it is (only its own stored files are checked).
  if (schema.pattern && LINK_PATTERNS.has(schema.pattern)) return `https://files.example.com/sample${n}.mp4`;
  if (schema.pattern) throw new Error(`no sample value for ${field} (pattern ${schema.pattern})`);
  return `样例${n}`.slice(0, schema.maxLength ?? 100);
}

const call = (d: ResourceDescriptor, name: string) => `/${d.service}/${name}`;

/** The parameters of the single-record call (`calls.one`) that read a record back. */
export function oneParams(d: ResourceDescriptor, record: Values): Values {
  return d.oneParam === 'Code' ? { Code: record[d.codeField!] } : { Id: record.Id };
}

/** Makes and reads records of any resource over the API, as the administrator. */
export class Records {
  private readonly made = new Map<string, Promise<Values>>();

  constructor(
    private readonly server: TestServer,
    private readonly admin: Client,
  ) {}

  /**
   * A valid create body: every required field the client writes, a reference pointing at a record
   * of its resource (one per resource, made on first use), then `fields`.
   */
  async body(d: ResourceDescriptor, fields: Values = {}): Promise<Values> {
    const props = d.schema.properties as Record<string, FieldSchema>;
    const body: Values = {};
    for (const field of d.schema.required ?? []) {
      if (props[field]?.readOnly || field in fields) continue;
      const reference = d.references?.find((r) => r.field === field);
      body[field] = reference ? (await this.shared(reference.to))[reference.toField] : sampleValue(field, props[field] ?? {});
    }
    return { ...body, ...fields };
  }

  /** The create call with a valid body, as the administrator. */
  async create(d: ResourceDescriptor, fields: Values = {}): Promise<CallResult<Values>> {
    return this.admin.call<Values>(call(d, d.calls.create!), await this.body(d, fields));
  }

  /**
   * A new record, made by the administrator; throws when it cannot be made. A resource no call
   * writes (the daily figures the server keeps) gets it written as the server would (stored()).
   */
  async fresh(d: ResourceDescriptor, fields: Values = {}): Promise<Values> {
    if (!d.calls.create) return this.stored(d, fields);
    const res = await this.create(d, fields);
    if (res.status !== 200) throw new Error(`${d.resource}: ${d.calls.create} answered ${res.status} ${res.body.msg}`);
    return res.body.data;
  }

  /**
   * A record of a resource without a create call, written through the repository (its kept totals
   * follow) with a valid value in every field, a reference pointing at a record of its resource.
   */
  async stored(d: ResourceDescriptor, fields: Values = {}): Promise<Values> {
    const props = d.schema.properties as Record<string, FieldSchema>;
    const values: Values = {};
    for (const [field, schema] of Object.entries(props)) {
      if (field === 'Id' || field in fields) continue;
      const reference = d.references?.find((r) => r.field === field);
      values[field] = reference ? (await this.shared(reference.to))[reference.toField] : sampleValue(field, schema);
    }
    return insertRow(this.server.app.database, d, { ...values, ...fields });
  }

  /** One record of the resource, made once and shared (what references point at). */
  shared(resource: string): Promise<Values> {
    let record = this.made.get(resource);
    if (!record) {
      const d = resourceByName(resource);
      if (!d) throw new Error(`unknown resource ${resource}`);
      record = this.fresh(d);
      this.made.set(resource, record);
    }
    return record;
  }

  /** The record as stored: by the single-record call, or found in the whole list. */
  async read(d: ResourceDescriptor, record: Values): Promise<Values> {
    if (d.calls.one) return (await this.admin.call<Values>(call(d, d.calls.one), oneParams(d, record))).body.data;
    const list = await this.admin.call<Values[]>(call(d, d.calls.list), { All: 1 });
    return list.body.data.find((r) => r.Id === record.Id) ?? {};
  }

  /** Gives a record to a member, as the descriptor's `ownership` field names its owner. */
  async giveTo(d: ResourceDescriptor, record: Values, auCode: string): Promise<void> {
    const field = d.ownership!.field;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are chosen by descriptor
    await (this.server.app.database.db as any).updateTable(d.table).set({ [toColumn(field)]: auCode }).where('ID', '=', record.Id).execute();
  }
}
