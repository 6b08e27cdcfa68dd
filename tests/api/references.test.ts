// What the descriptors declare about references, fixed fields and create defaults holds over HTTP,
// for every descriptor that declares it: a reference to nothing is refused with its message, copied
// fields follow the referenced record, a tree refuses cycles and moves that would change a fixed
// field, a referenced record cannot be deleted while rows point at it (or takes them with it), and
// a create that leaves a field out gets its declared default. The cases come from the descriptors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE, dayIn } from '../../schemas/businessTime';
import { RESOURCES, resourceByName, type Reference, type ResourceDescriptor } from '../../schemas/index';
import { Records, type Values } from '../helpers/records';
import { startServer, type Client, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Client;
let records: Records;

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
  records = new Records(server, admin);
});
afterAll(() => server?.close());

const NOWHERE = 'nosuchrecord';
const path = (d: ResourceDescriptor, call: string | undefined) => `/${d.service}/${call!}`;
const targetOf = (r: Reference) => resourceByName(r.to)!;
const referencing = RESOURCES.flatMap((d) => (d.references ?? []).map((r) => [`${d.resource}.${r.field}`, d, r] as const));

/** Two distinct valid values of a field a client may set at the root of a tree. */
function twoValues(d: ResourceDescriptor, field: string): [unknown, unknown] {
  const s = d.schema.properties[field] as { type?: unknown; minimum?: number; maximum?: number; enum?: readonly unknown[] };
  if (s.enum && s.enum.length >= 2) return [s.enum[0], s.enum[1]];
  if (s.type === 'integer') {
    const low = Math.max(s.minimum ?? 0, 0);
    return [Math.min(low + 1, s.maximum ?? low + 1), Math.min(low + 2, s.maximum ?? low + 2)];
  }
  return ['甲', '乙'];
}

async function update(d: ResourceDescriptor, values: Values) {
  return admin.call<Values>(path(d, d.calls.update), values);
}

describe('the cases', () => {
  it('come from the descriptors', () => {
    expect(referencing.length).toBeGreaterThanOrEqual(5);
    expect(referencing.some(([, , r]) => r.cycle)).toBe(true);
    expect(referencing.some(([, , r]) => r.onDelete === 'cascade')).toBe(true);
    expect(RESOURCES.some((d) => Object.keys(d.createDefaults ?? {}).length > 0)).toBe(true);
  });
});

/**
 * References written by the generated calls (a hand-written create checks its own way; records no
 * call writes, the server's daily figures, point where the server puts them).
 */
const generated = referencing.filter(([, d]) => d.calls.create && !d.handWritten?.includes('create'));

describe.each(generated)('reference %s', (_name, d, r) => {
  it('refuses a record that does not exist, with its message, on create and on update', async () => {
    const created = await records.create(d, { [r.field]: NOWHERE });
    expect(created.status).toBe(400);
    expect(created.body.msg).toBe(r.missing);
    expect(created.body.errors).toEqual([{ field: r.field, msg: r.missingHint ?? r.missing }]);
    if (!d.calls.update) return;
    const record = await records.fresh(d);
    const updated = await update(d, { Id: record.Id, [r.field]: NOWHERE });
    expect(updated.status).toBe(400);
    expect(updated.body.msg).toBe(r.missing);
    expect(updated.body.errors).toEqual([{ field: r.field, msg: r.missingHint ?? r.missing }]);
  });

});

describe.each(generated.filter(([, , r]) => r.copy))('copying reference %s', (_name, d, r) => {
  const target = targetOf(r);
  it('copies fields from the referenced record on create and on a move', async () => {
    const copies = Object.entries(r.copy ?? {});
    // Parents with distinct values where the client may set them (at the root of a tree).
    const rootOfTarget = targetOf(r).references?.find((t) => t.to === target.resource && t.root !== undefined);
    const parentValues = (i: 0 | 1) =>
      Object.fromEntries([
        ...copies.map(([from]) => [from, twoValues(target, from)[i]]),
        ...(rootOfTarget ? [[rootOfTarget.field, rootOfTarget.root]] : []),
      ]);
    const first = await records.fresh(target, parentValues(0));
    const child = await records.fresh(d, { [r.field]: first[r.toField] });
    for (const [from, field] of copies) expect(child[field], field).toEqual(first[from]);
    const fixed = copies.some(([, field]) => d.fixedFields?.includes(field));
    if (!d.calls.update || fixed) return;
    const second = await records.fresh(target, parentValues(1));
    const moved = await update(d, { Id: child.Id, [r.field]: second[r.toField] });
    expect(moved.status, moved.body.msg).toBe(200);
    for (const [from, field] of copies) {
      expect(second[from]).not.toEqual(first[from]);
      expect(moved.body.data[field], field).toEqual(second[from]);
    }
  });

});

describe.each(referencing.filter(([, , r]) => r.cycle))('tree reference %s', (_name, d, r) => {
  it('refuses to put a record under itself or its descendants (409)', async () => {
    const top = await records.fresh(d);
    const child = await records.fresh(d, { [r.field]: top[r.toField] });
    const grandchild = await records.fresh(d, { [r.field]: child[r.toField] });
    for (const under of [top, child, grandchild]) {
      const res = await update(d, { Id: top.Id, [r.field]: under[r.toField] });
      expect(res.status).toBe(409);
      expect(res.body.msg).toBe(r.cycle);
    }
    // Moving to the root, or keeping the parent, needs no check.
    expect((await update(d, { Id: child.Id, [r.field]: top[r.toField] })).status).toBe(200);
    if (r.root !== undefined) expect((await update(d, { Id: grandchild.Id, [r.field]: r.root })).status).toBe(200);
  });

});

const fixedCopiesOf = (d: ResourceDescriptor, r: Reference) => Object.entries(r.copy ?? {}).filter(([, field]) => d.fixedFields?.includes(field));

describe.each(referencing.filter(([, d, r]) => r.to === d.resource && r.root !== undefined && fixedCopiesOf(d, r).length > 0))(
  'tree reference %s copying fixed fields',
  (_name, d, r) => {
    it('keeps them: a top-level record takes the client value, a move may not change it', async () => {
      for (const [from, field] of fixedCopiesOf(d, r)) {
        const [one, other] = twoValues(d, field);
        const a = await records.fresh(d, { [r.field]: r.root, [field]: one });
        const b = await records.fresh(d, { [r.field]: r.root, [field]: other });
        expect([a[field], b[field]]).toEqual([one, other]);
        // A child takes its parent's value, whatever the client sends.
        const child = await records.fresh(d, { [r.field]: a[r.toField], [field]: other });
        expect(child[field]).toEqual(a[from]);
        const moved = await update(d, { Id: child.Id, [r.field]: b[r.toField] });
        expect(moved.status).toBe(400);
        expect(moved.body.msg).toBe(r.copyMismatch);
        expect(moved.body.errors).toEqual([{ field: r.field, msg: r.copyMismatch }]);
        // Never changed by an update, and kept by a move to the root.
        const changed = await update(d, { Id: a.Id, [field]: other });
        expect(changed.status, changed.body.msg).toBe(200);
        expect(changed.body.data[field]).toEqual(one);
        const toRoot = await update(d, { Id: child.Id, [r.field]: r.root });
        expect(toRoot.status, toRoot.body.msg).toBe(200);
        expect(toRoot.body.data[field]).toEqual(one);
      }
    });
  },
);

describe.each(referencing.filter(([, , r]) => r.onDelete === 'refuse'))('refusing reference %s', (_name, d, r) => {
  const target = targetOf(r);
  it('refuses to delete the referenced record while rows point at it (409)', async () => {
    const parent = await records.fresh(target);
    const child = await records.fresh(d, { [r.field]: parent[r.toField] });
    const refused = await admin.call(path(target, target.calls.delete), { Id: parent.Id });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(r.refused);
    expect((await admin.call(path(d, d.calls.delete), { Id: child.Id })).status).toBe(200);
    expect((await admin.call(path(target, target.calls.delete), { Id: parent.Id })).status).toBe(200);
  });

});

describe.each(referencing.filter(([, , r]) => r.onDelete === 'cascade'))('cascading reference %s', (_name, d, r) => {
  const target = targetOf(r);
  it('deletes the rows pointing at the referenced record with it, counted in its log entry', async () => {
    const parent = await records.fresh(target);
    for (let i = 0; i < 2; i++) await records.fresh(d, { [r.field]: parent[r.toField] });
    const list = () => admin.call<Values[]>(path(d, d.calls.list), { [r.field]: parent[r.toField] as string });
    expect((await list()).body.total).toBe(2);
    const deleted = await admin.call(path(target, target.calls.delete), { Id: parent.Id });
    expect(deleted.status, deleted.body.msg).toBe(200);
    expect((await list()).body.total).toBe(0);
    const log = await admin.call<{ Changes: Values[] }[]>('/Ajax/GetAuditLogListInAdmin', { Resource: target.resource, Action: 'delete', pageSize: 1 });
    expect(log.body.data[0]!.Changes).toContainEqual({ field: d.resource, label: `随之删除的${d.label}`, before: 2 });
  });
});

describe.each(
  RESOURCES.filter((d) => referencing.filter(([, , r]) => r.to === d.resource && r.onDelete === 'refuse').length > 1).map((d) => [d.resource, d] as const),
)(
  'deleting a %s pointed at from several resources',
  (_name, d) => {
    it("names its own children first (a tree's)", async () => {
      const self = d.references?.find((r) => r.to === d.resource && r.onDelete === 'refuse');
      if (!self) return;
      const parent = await records.fresh(d);
      for (const [, from, r] of referencing.filter(([, , r]) => r.to === d.resource && r.onDelete === 'refuse')) {
        await records.fresh(from, { [r.field]: parent[r.toField] });
      }
      const refused = await admin.call(path(d, d.calls.delete), { Id: parent.Id });
      expect(refused.status).toBe(409);
      expect(refused.body.msg).toBe(self.refused);
    });
  },
);

describe.each(RESOURCES.filter((d) => d.createDefaults).map((d) => [d.resource, d] as const))('create defaults of %s', (_name, d) => {
  it('fill the fields a create leaves out', async () => {
    for (const [field, rule] of Object.entries(d.createDefaults!)) {
      // "Today" is the business time zone's (the server's default), not the host's or UTC's.
      const before = dayIn(DEFAULT_TIME_ZONE);
      const first = await records.fresh(d);
      const second = await records.fresh(d);
      const after = dayIn(DEFAULT_TIME_ZONE);
      if (rule === 'today') {
        expect([before, after], field).toContain(first[field]);
      } else {
        // After the last row: above every other, one more than the one before.
        const all = await admin.call<Values[]>(path(d, d.calls.list), { All: 1 });
        const others = all.body.data.filter((row) => row.Id !== second.Id).map((row) => Number(row[field]));
        expect(Number(second[field]), field).toBe(Math.max(...others) + 1);
        expect(Number(second[field])).toBe(Number(first[field]) + 1);
      }
      // A value the client gives stands.
      const given = rule === 'today' ? '2020-02-02' : 7;
      expect((await records.fresh(d, { [field]: given }))[field]).toBe(given);
    }
  });
});

describe.each(
  referencing.filter(([, d, r]) => d.filters.includes(r.field) && r.root === undefined && targetOf(r).references?.some((t) => t.to === r.to && t.root !== undefined)),
)('filter %s', (_name, d, r) => {
  it("takes the root of the referenced tree as every record's", async () => {
    const root = targetOf(r).references!.find((t) => t.to === r.to && t.root !== undefined)!.root!;
    await records.fresh(d);
    const all = await admin.call<Values[]>(path(d, d.calls.list), {});
    const anywhere = await admin.call<Values[]>(path(d, d.calls.list), { [r.field]: root });
    expect(all.body.total).toBeGreaterThan(0);
    expect(anywhere.body.total).toBe(all.body.total);
  });
});
