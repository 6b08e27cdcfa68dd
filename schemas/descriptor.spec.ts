// What an entity file may leave out, and the screens' field lists, follow from the rest.
import { describe, expect, it } from 'vitest';
import { defineResource, formFields, listFields } from './descriptor';
import { meetingMinutesSchema } from '../tests/fixtures/meetingMinutes';

/** The worked example's schema (docs/architecture.md), with a password beside. */
const schema = {
  ...meetingMinutesSchema,
  properties: { ...meetingMinutesSchema.properties, MmSecret: { type: 'string', title: '口令', writeOnly: true } },
} as const;

const declaration = {
  resource: 'meetingMinutes',
  service: 'Ajax',
  schema,
  codeField: 'MmCode',
  calls: { list: 'GetMeetingMinutesListInAdmin' },
  defaultOrder: 'ID DESC',
  searchFields: [],
  filters: [],
  pageSize: 15,
  dialog: { width: 600 },
} as const;

describe('defineResource', () => {
  it('names the entity, its module, table, dialog and screen from the schema title and the resource', () => {
    const d = defineResource({ ...declaration, screens: [{ menu: [{ group: '会议', order: 1, icon: 'Description' }] }] });
    expect(d.label).toBe('会议纪要');
    expect(d.module).toBe('meetingMinutes');
    expect(d.modules).toEqual([{ key: 'meetingMinutes', label: '会议纪要' }]);
    expect(d.table).toBe('MEETING_MINUTES');
    expect(d.dialog).toEqual({ width: 600, title: '会议纪要详情' });
    expect(d.screens?.[0]).toMatchObject({ path: '/meetingMinutes', label: '会议纪要', module: 'meetingMinutes' });
  });

  it('labels an own module by its first screen, and keeps what is written', () => {
    const d = defineResource({ ...declaration, label: '纪要', table: 'MM', dialog: { width: 600, title: '详情' }, screens: [{ label: '纪要管理' }] });
    expect(d.modules).toEqual([{ key: 'meetingMinutes', label: '纪要管理' }]);
    expect([d.label, d.table, d.dialog.title]).toEqual(['纪要', 'MM', '详情']);
  });

  it('introduces its own module before the others it lists', () => {
    const d = defineResource({ ...declaration, modules: [{ key: 'minutesView' }], screens: [{ label: '纪要编辑' }, { path: '/v', label: '纪要查看', module: 'minutesView' }] });
    expect(d.modules).toEqual([
      { key: 'meetingMinutes', label: '纪要编辑' },
      { key: 'minutesView', label: '纪要查看' },
    ]);
  });

  it('introduces no module when the entity is guarded by another', () => {
    expect(defineResource({ ...declaration, module: 'other' }).modules).toBeUndefined();
  });
});

describe('the screens\' fields, in the schema\'s order', () => {
  const all = ['MmTitle', 'MtCode', 'MmDate', 'MmStatus', 'IsTop', 'MmFiles', 'MmBody'];

  it('lists every field but the Id, the code, passwords and the hidden ones', () => {
    expect(listFields(defineResource(declaration))).toEqual([...all, 'UpdateTime']);
    expect(listFields(defineResource({ ...declaration, hidden: { list: ['MmFiles', 'UpdateTime'] } }))).toEqual(all.filter((f) => f !== 'MmFiles'));
  });

  it('edits every field the server does not own, but the hidden ones', () => {
    expect(formFields(defineResource(declaration))).toEqual([...all, 'MmSecret']);
    expect(formFields(defineResource({ ...declaration, hidden: { form: ['MmBody'] } }))).toEqual([...all.filter((f) => f !== 'MmBody'), 'MmSecret']);
  });
});
