// 批量删除: the bulk delete call of every descriptor whose delete call is generated (docs/api.md,
// Bulk delete). Each row goes by the rules of one deletion (crud.ts): the delete code, checked up
// front for the whole call; ownership, "still in use" and its cascades, its files and its own audit
// entry, per row. Rows go BULK_DELETE_BATCH to a transaction, and other requests get the database
// between two batches. The answer says how many went, and which did not and why.
import type { FastifyInstance } from 'fastify';
import { BULK_DELETE_BATCH, bulkDeleteCall, MAX_BULK_DELETE, type BulkDeleteFailure, type BulkDeleteResult } from '../../../schemas/bulkDelete';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { isOwnedAction, ownsRecord } from '../../../schemas/permissions';
import { toCurrentMember, type MemberRow } from '../auth/members';
import { parseOrderName } from '../db/orderName';
import { deleteRow, deleteRows, findRow, listRows, storedFields, type Row } from '../db/repository';
import { ApiError, badRequest, constraintViolation, MSG_CONCURRENT_CHANGE } from '../errors';
import { ok } from '../http/envelope';
import { MSG_NOT_OWNER, requireAccess } from '../plugins/permissions';
import { listFilters, writeRoute } from './crud';
import { idProperty, listParamsSchema } from './requestSchemas';
import { checkDelete } from './rules';

type Params = Record<string, unknown>;

/** A refusal nobody foresaw (the database): the row stays, and the others go on. */
const MSG_FAILED = '删除失败，请稍后重试';

/** Rounds at most over rows still in use: a tree selected whole goes leaves first, a level a round. */
const MAX_ROUNDS = 64;

function bodySchema(descriptor: ResourceDescriptor) {
  // The list call's filters and search fields: "every row the list shows".
  const { properties } = listParamsSchema(descriptor);
  const { pageIndex: _page, pageSize: _size, OrderName: _order, All: _all, ...filters } = properties;
  return {
    type: 'object',
    properties: {
      Ids: { type: 'array', items: idProperty, minItems: 1, maxItems: MAX_BULK_DELETE },
      All: { type: 'integer', enum: [1] },
      ...filters,
    },
    anyOf: [{ required: ['Ids'] }, { required: ['All'] }],
    additionalProperties: false,
  } as const;
}

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The ids the call is about: those given, or every row matching the list's filters, refused past the bound. */
async function targetIds(app: FastifyInstance, descriptor: ResourceDescriptor, body: Params): Promise<number[]> {
  if (body.Ids !== undefined) {
    if (body.All !== undefined) throw badRequest('Ids 与 All 只能选其一');
    return [...new Set(body.Ids as number[])];
  }
  const { rows, total } = await listRows(app.database, descriptor, {
    ...listFilters(descriptor, body),
    order: parseOrderName(undefined, descriptor),
    limit: MAX_BULK_DELETE,
    omit: storedFields(descriptor)
      .map((f) => f.field)
      .filter((field) => field !== 'Id'),
  });
  if (total > MAX_BULK_DELETE) throw badRequest(`符合条件的${descriptor.label}有${total}条，一次最多删除${MAX_BULK_DELETE}条，请缩小范围后重试`);
  return rows.map((row) => Number(row.Id));
}

/** What one bulk deletion is doing: the rows gone, those refused, and those to try again once others went. */
class Run {
  deleted = 0;
  readonly failed = new Map<number, BulkDeleteFailure>();
  /** Rows refused as still in use, which a later row of the call may free (a tree's parent). */
  inUse: number[] = [];

  constructor(
    private readonly app: FastifyInstance,
    private readonly descriptor: ResourceDescriptor,
    private readonly member: MemberRow,
  ) {}

  private nameOf(row: Row | undefined): string | null {
    const field = this.descriptor.nameField;
    const name = row && field ? row[field] : undefined;
    return name === undefined || name === null ? null : String(name);
  }

  private fail(id: number, row: Row | undefined, reason: string) {
    this.failed.set(id, { Id: id, Name: this.nameOf(row), Reason: reason });
  }

  private gone(id: number, row: Row | undefined) {
    this.fail(id, row, `${this.descriptor.label}不存在或已被删除`);
  }

  /** One batch: each row checked as one deletion checks it, then the allowed ones in one transaction. */
  async batch(ids: readonly number[]): Promise<void> {
    const { app, descriptor, member } = this;
    const current = toCurrentMember(member);
    const owned = isOwnedAction(descriptor, 'delete');
    const ctx = { database: app.database, storage: app.storage, member, now: new Date(), timeZone: app.config.timeZone };
    const allowed: Row[] = [];
    for (const id of ids) {
      this.failed.delete(id);
      let row: Row | undefined;
      try {
        row = await findRow(app.database, descriptor, 'Id', id);
        if (!row) {
          this.gone(id, undefined);
          continue;
        }
        if (owned && !ownsRecord(current, descriptor.resource, row)) {
          this.fail(id, row, MSG_NOT_OWNER);
          continue;
        }
        await checkDelete(descriptor, ctx, row);
        allowed.push(row);
      } catch (err) {
        // Reported, not thrown: the rows deleted before stay deleted, and the answer says so.
        if (!(err instanceof ApiError)) app.log.warn({ err, resource: descriptor.resource, id }, 'bulk delete: a row could not be checked');
        this.fail(id, row, err instanceof ApiError ? err.message : MSG_FAILED);
        if (err instanceof ApiError && err.status === 409) this.inUse.push(id);
      }
    }
    if (allowed.length === 0) return;
    const files = app.files.track(descriptor);
    const deleted = await deleteRows(app.database, descriptor, allowed.map((row) => Number(row.Id)), member, files.hook).then(
      (ids) => new Set(ids),
      (err: unknown) => {
        app.log.warn({ err, resource: descriptor.resource }, 'bulk delete: a batch failed; its rows are deleted one by one');
        return undefined;
      },
    );
    await files.settle();
    if (!deleted) {
      // The batch rolled back whole: each of its rows on its own, so that one refusal (a row
      // pointed at meanwhile) costs only that row.
      await this.oneByOne(allowed);
      return;
    }
    for (const row of allowed) {
      const id = Number(row.Id);
      if (deleted.has(id)) this.deleted++;
      else this.gone(id, row);
    }
  }

  private async oneByOne(rows: readonly Row[]): Promise<void> {
    const { app, descriptor, member } = this;
    for (const row of rows) {
      const id = Number(row.Id);
      const files = app.files.track(descriptor);
      try {
        if (await deleteRow(app.database, descriptor, id, member, files.hook)) this.deleted++;
        else this.gone(id, row);
      } catch (err) {
        app.log.warn({ err, resource: descriptor.resource, id }, 'bulk delete: a row failed');
        this.fail(id, row, err instanceof ApiError ? err.message : constraintViolation(err) ? MSG_CONCURRENT_CHANGE : MSG_FAILED);
      }
      await files.settle();
    }
  }

  result(): BulkDeleteResult {
    return { Deleted: this.deleted, Failed: [...this.failed.values()] };
  }
}

export function registerBulkDelete(app: FastifyInstance, descriptor: ResourceDescriptor): void {
  const call = bulkDeleteCall(descriptor);
  if (!call) return;
  const summary = `批量删除${descriptor.label}`;
  writeRoute(app, `/${descriptor.service}/${call}`, bodySchema(descriptor), { tags: [descriptor.label], summary }, async (request, body) => {
    // Without the delete code, nothing is read or deleted.
    const member = await requireAccess(request, descriptor, 'delete');
    const ids = await targetIds(app, descriptor, body);
    const run = new Run(app, descriptor, member);
    let pending = ids;
    for (let round = 0; pending.length > 0 && round < MAX_ROUNDS; round++) {
      const before = run.deleted;
      run.inUse = [];
      for (let i = 0; i < pending.length; i += BULK_DELETE_BATCH) {
        if (i > 0) await yieldToOthers();
        await run.batch(pending.slice(i, i + BULK_DELETE_BATCH));
      }
      // Rows refused as in use may be free now that others went (a classification and its children).
      pending = run.deleted > before ? run.inUse : [];
    }
    const result = run.result();
    const msg = result.Failed.length === 0 ? `已删除${result.Deleted}条` : `已删除${result.Deleted}条，${result.Failed.length}条未删除`;
    return ok(result, msg);
  });
}
