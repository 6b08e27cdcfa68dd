/**
 * react-admin dataProvider over the legacy API of docs/api.md. Every request is
 * `POST ${apiUrl}/${descriptor.service}/${callName}` with a JSON body; the answer is the envelope
 * `{ code, msg, data, total?, errors? }`. Resources are the descriptors of schemas/index.ts.
 *
 * | method            | request                                                                        |
 * |-------------------|--------------------------------------------------------------------------------|
 * | getList           | calls.list { pageIndex: page, pageSize: perPage, OrderName, ...filters }       |
 * | getList (All)     | calls.list { All: 1, OrderName, ...filters }            (filter.All = 1/true)  |
 * | (cut short)       | a list answer at the server's byte limit: pages from where it stopped          |
 * | getOne            | calls.one { Id } (+ Code from meta.code when oneParam is 'Code')               |
 * | getOne (no one)   | calls.list { All: 1, OrderName: defaultOrder, ...meta.filter }, find by Id     |
 * | getMany           | getOne per id in parallel (one All=1 list call when there is no calls.one)    |
 * | (meta.idField)    | getList/getMany identify rows by that field (a reference's code): All=1 list   |
 * | getManyReference  | getList with filter[target] = id (target must be a declared filter)           |
 * | create            | calls.create data minus id                                                     |
 * | update            | calls.update { ...data, Id: id } minus id                                      |
 * | updateMany        | update per id, in sequence                                                     |
 * | delete            | calls.delete { Id }                                                            |
 * | deleteMany        | bulkDeleteCall { Ids } (or meta.filter: { All: 1, ...filters }) → meta.result  |
 * | (no bulk call)    | delete per id, in sequence                                                     |
 * | call              | ${service}/${name} params → { data, total, msg }  (counters, comments, sort…) |
 * | getCurrentMember  | Ajax/GetCurrentMember {}                                                       |
 *
 * OrderName: see toOrderName in ./listParams (chosen column first, then the default order).
 * Errors: HttpError(msg, status, body) with body.errors = { [field]: msg } (see src/http).
 */
import { HttpError, type DataProvider, type Identifier, type RaRecord } from 'react-admin';
import { resourceByName } from '../../schemas/index';
import { bulkDeleteCall, type BulkDeleteResult } from '../../schemas/bulkDelete';
import type { ResourceDescriptor, Service } from '../../schemas/descriptor';
import type { CurrentMember } from '../../schemas/types';
import { fetchJson, postJson, type CallResult, type HttpClient } from '../http/index';
import { pickFilters, restOfList, toListParams, type ListQuery } from './listParams';

export { toOrderName, toListParams, pickFilters, type ListQuery } from './listParams';

export interface LegacyDataProvider extends DataProvider {
  /** Any legacy call (counters, comments, website sort, SignUpload): the envelope's data and total. */
  call<T = unknown>(service: Service, name: string, params?: Record<string, unknown>): Promise<CallResult<T>>;
  getCurrentMember(): Promise<CurrentMember>;
}

type Row = Record<string, unknown>;

function descriptorOf(resource: string): ResourceDescriptor {
  const descriptor = resourceByName(resource);
  if (!descriptor) throw new Error(`未知的资源: ${resource}`);
  return descriptor;
}

function callName(descriptor: ResourceDescriptor, kind: 'create' | 'update' | 'delete'): string {
  const name = descriptor.calls[kind];
  if (!name) throw new Error(`${descriptor.label}不支持此操作`);
  return name;
}

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * react-admin needs `id`; the legacy records carry `Id`. A reference names its record by another
 * field (`VdtCode`): asked with `meta.idField`, that field is the id, so that react-admin's
 * ReferenceInput and ReferenceField find the record the value names.
 */
function withId(row: Row, idField = 'Id'): RaRecord {
  return { ...row, id: row[idField] as Identifier };
}

/** The field a call's `meta.idField` names, if it is a field of the descriptor's schema. */
function idFieldOf(descriptor: ResourceDescriptor, meta: unknown): string | undefined {
  const field = isRow(meta) ? meta.idField : undefined;
  return typeof field === 'string' && Object.hasOwn(descriptor.schema.properties, field) ? field : undefined;
}

function withoutId(data: unknown): Row {
  if (!isRow(data)) return {};
  const rest = { ...data };
  delete rest.id;
  return rest;
}

const notFound = () => new HttpError('记录不存在或已被删除', 404, { code: 404, msg: '记录不存在或已被删除' });

export function legacyDataProvider(apiUrl: string, httpClient: HttpClient = fetchJson): LegacyDataProvider {
  const base = apiUrl.replace(/\/+$/, '');

  const urlOf = (service: Service, name: string) => `${base}/${service}/${name}`;

  const send = <T>(service: Service, name: string, params: Row = {}, signal?: AbortSignal) =>
    postJson<T>(httpClient, urlOf(service, name), params, signal);

  const list = async (descriptor: ResourceDescriptor, query: ListQuery, signal?: AbortSignal, idField?: string) => {
    const params = toListParams(descriptor, query);
    const rowsOf = (data: unknown) => (Array.isArray(data) ? data.filter(isRow).map((row) => withId(row, idField)) : []);
    const { data, total } = await send<unknown>(descriptor.service, descriptor.calls.list, params, signal);
    const rows = rowsOf(data);
    // An answer cut short at the server's byte limit: the rest, from where it stopped, so that
    // every screen gets all the rows it asked for, each answer staying within the limit.
    for (let rest = restOfList(params, total, rows.length); rest; rest = restOfList(params, total, rows.length)) {
      const more = rowsOf((await send<unknown>(descriptor.service, descriptor.calls.list, rest.params, signal)).data);
      // Rows deleted meanwhile: nothing more to read.
      if (more.length === 0) break;
      rows.push(...more.slice(0, rest.wanted));
    }
    return { data: rows, total: params.All === 1 ? rows.length : (total ?? rows.length) };
  };

  /** Every row, for descriptors without a single-record call (video types, websites, classifications). */
  const listAll = (descriptor: ResourceDescriptor, filter: Row = {}, signal?: AbortSignal, idField?: string) =>
    list(descriptor, { filter: { ...filter, All: 1 }, sort: undefined }, signal, idField).then((r) => r.data);

  const getOne = async (
    descriptor: ResourceDescriptor,
    id: Identifier,
    meta: Row | undefined,
    signal?: AbortSignal,
  ): Promise<RaRecord> => {
    if (!descriptor.calls.one) {
      const rows = await listAll(descriptor, isRow(meta?.filter) ? meta.filter : {}, signal);
      const found = rows.find((r) => String(r.id) === String(id));
      if (!found) throw notFound();
      return found;
    }
    // The server accepts Id on every single-record call; Code is added for the article viewer's links.
    const params: Row = { Id: id };
    if (descriptor.oneParam === 'Code' && meta?.code !== undefined && meta.code !== null && meta.code !== '') {
      params.Code = meta.code;
    }
    const { data } = await send<unknown>(descriptor.service, descriptor.calls.one, params, signal);
    if (!isRow(data)) throw notFound();
    return withId(data);
  };

  const update = async (descriptor: ResourceDescriptor, id: Identifier, data: unknown): Promise<RaRecord> => {
    const payload = { ...withoutId(data), Id: id };
    const result = await send<unknown>(descriptor.service, callName(descriptor, 'update'), payload);
    // The update calls may answer with the saved record or with nothing.
    return isRow(result.data) && result.data.Id !== undefined ? withId(result.data) : { ...payload, id };
  };

  const remove = async (descriptor: ResourceDescriptor, id: Identifier): Promise<void> => {
    await send(descriptor.service, callName(descriptor, 'delete'), { Id: id });
  };

  // Generic methods cast their rows: the records are typed by schemas/types.ts at the screens.
  const provider: LegacyDataProvider = {
    async getList(resource, params) {
      const descriptor = descriptorOf(resource);
      const result = await list(descriptor, params as ListQuery, params.signal, idFieldOf(descriptor, params.meta));
      return result as never;
    },

    async getOne(resource, params) {
      const record = await getOne(descriptorOf(resource), params.id, params.meta as Row | undefined, params.signal);
      return { data: record } as never;
    },

    async getMany(resource, params) {
      const descriptor = descriptorOf(resource);
      const idField = idFieldOf(descriptor, params.meta);
      if (!descriptor.calls.one || idField) {
        const rows = await listAll(descriptor, isRow(params.meta?.filter) ? params.meta.filter : {}, params.signal, idField);
        const byId = new Map(rows.map((r) => [String(r.id), r]));
        const data = params.ids.map((id) => byId.get(String(id))).filter((r): r is RaRecord => r !== undefined);
        return { data } as never;
      }
      const data = await Promise.all(params.ids.map((id) => getOne(descriptor, id, undefined, params.signal)));
      return { data } as never;
    },

    async getManyReference(resource, params) {
      const descriptor = descriptorOf(resource);
      // Dropping an undeclared target would silently list every row: refuse it instead.
      if (!descriptor.filters.includes(params.target)) {
        throw new Error(`${descriptor.label}不能按 ${params.target} 筛选`);
      }
      const filter = { ...(params.filter as Row), [params.target]: params.id };
      const result = await list(descriptor, { ...params, filter } as ListQuery, params.signal);
      return result as never;
    },

    async create(resource, params) {
      const descriptor = descriptorOf(resource);
      const payload = withoutId(params.data);
      const { data } = await send<unknown>(descriptor.service, callName(descriptor, 'create'), payload);
      const created = isRow(data) ? data : payload;
      return { data: withId(created) } as never;
    },

    async update(resource, params) {
      const record = await update(descriptorOf(resource), params.id, params.data);
      return { data: record } as never;
    },

    async updateMany(resource, params) {
      const descriptor = descriptorOf(resource);
      // In sequence: the legacy server is not built for bursts, and a failure stops the rest.
      for (const id of params.ids) await update(descriptor, id, params.data);
      return { data: params.ids } as never;
    },

    async delete(resource, params) {
      const descriptor = descriptorOf(resource);
      await remove(descriptor, params.id);
      return { data: params.previousData ?? { id: params.id } } as never;
    },

    async deleteMany(resource, params) {
      const descriptor = descriptorOf(resource);
      const bulk = bulkDeleteCall(descriptor);
      if (!bulk) {
        for (const id of params.ids) await remove(descriptor, id);
        return { data: params.ids } as never;
      }
      // meta.filter: every row the list shows with that filter, not the ids of a selection.
      const filter = isRow(params.meta) && isRow(params.meta.filter) ? params.meta.filter : undefined;
      const body = filter ? { All: 1, ...pickFilters(descriptor, filter) } : { Ids: params.ids };
      const { data: result } = await send<BulkDeleteResult>(descriptor.service, bulk, body);
      const failed = new Set(result.Failed.map((f) => String(f.Id)));
      return { data: params.ids.filter((id) => !failed.has(String(id))), meta: { result } } as never;
    },

    call<T = unknown>(service: Service, name: string, params: Record<string, unknown> = {}) {
      return send<T>(service, name, params);
    },

    async getCurrentMember() {
      const { data } = await send<CurrentMember>('Ajax', 'GetCurrentMember');
      return data;
    },
  };
  return provider;
}

