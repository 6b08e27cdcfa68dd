// The dialog's checks say what the server says: each body of the table goes to a Fastify server
// built as the app's (its Ajv options and date range, the write route's trimming, the error
// handler) and through the dialog's validators (virtual:write-validators), and both give the same
// field errors, which are also the ones expected here.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_MAXIMUM, DATE_MINIMUM, FIELD_MESSAGES, SORT_MAXIMUM, SORT_MINIMUM } from '../../schemas/fields';
import { memberResource } from '../../schemas/member';
import { articleResource } from '../../schemas/standardArticle';
import { usewebResource } from '../../schemas/useweb';
import { CALL_BODIES, writeBodySchema, writeCallKey, type FieldError, type WriteKind } from '../../schemas/validation';
import { videoResource } from '../../schemas/video';
import { videoTypeResource } from '../../schemas/videoType';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import errorsPlugin from '../../server/src/plugins/errors';
import { writeRoute } from '../../server/src/routes/crud';
import { requestAjv } from '../../server/src/routes/requestSchemas';
import { bodyErrors, callBodyErrors, formValidator } from './formValidation';

type Body = Record<string, unknown>;

let server: FastifyInstance;

beforeAll(async () => {
  server = Fastify({ ajv: requestAjv });
  await server.register(errorsPlugin);
  const routes = new Map<string, object>(Object.entries(CALL_BODIES));
  for (const descriptor of [videoTypeResource, usewebResource, videoResource, articleResource, memberResource]) {
    for (const kind of ['create', 'update'] as WriteKind[]) routes.set(writeCallKey(descriptor, kind)!, writeBodySchema(descriptor, kind));
  }
  for (const [key, schema] of routes) writeRoute(server, `/${key}`, schema, { tags: [], summary: key }, async () => ({ code: 0 }));
  await server.ready();
});
afterAll(() => server?.close());

async function serverErrors(key: string, body: Body): Promise<FieldError[]> {
  const res = await server.inject({ method: 'POST', url: `/${key}`, payload: body });
  const answer = res.json<{ code: number; errors?: FieldError[] }>();
  expect(res.statusCode, JSON.stringify(answer)).toBe(answer.code === 0 ? 200 : 400);
  return answer.errors ?? [];
}

const video = { VdtCode: 'a1', VdName: '视频', VdUrl: 'https://media.example.com/a.mp4' };
const { maxLength: NAME_MAX } = videoTypeResource.schema.properties.VdtName;
const { minLength: PASSWORD_MIN } = memberResource.schema.properties.Password;
/** A character outside the BMP: one character, two UTF-16 units. */
const WIDE = '𠀀';

const cases: { name: string; descriptor: ResourceDescriptor; kind: WriteKind; body: Body; errors: FieldError[] }[] = [
  { name: 'a valid body', descriptor: videoTypeResource, kind: 'create', body: { VdtName: '分类', VdtSort: 3 }, errors: [] },
  { name: 'a name of spaces', descriptor: videoTypeResource, kind: 'create', body: { VdtName: '   ', VdtSort: 1 }, errors: [{ field: 'VdtName', msg: FIELD_MESSAGES.required }] },
  { name: 'a required name left out', descriptor: videoTypeResource, kind: 'create', body: { VdtSort: 1 }, errors: [{ field: 'VdtName', msg: FIELD_MESSAGES.required }] },
  { name: 'a name at its limit in characters', descriptor: videoTypeResource, kind: 'create', body: { VdtName: WIDE.repeat(NAME_MAX) }, errors: [] },
  {
    name: 'a name over its limit in characters',
    descriptor: videoTypeResource,
    kind: 'create',
    body: { VdtName: ` ${WIDE.repeat(NAME_MAX + 1)} ` },
    errors: [{ field: 'VdtName', msg: FIELD_MESSAGES.maxLength(NAME_MAX) }],
  },
  { name: 'a sort below its minimum', descriptor: videoTypeResource, kind: 'create', body: { VdtName: '分类', VdtSort: SORT_MINIMUM - 1 }, errors: [{ field: 'VdtSort', msg: FIELD_MESSAGES.minimum(SORT_MINIMUM) }] },
  { name: 'a sort above its maximum', descriptor: videoTypeResource, kind: 'create', body: { VdtName: '分类', VdtSort: 1e9 }, errors: [{ field: 'VdtSort', msg: FIELD_MESSAGES.maximum(SORT_MAXIMUM) }] },
  { name: 'a sort that is no number', descriptor: videoTypeResource, kind: 'create', body: { VdtName: '分类', VdtSort: 'abc' }, errors: [{ field: 'VdtSort', msg: '须为数字' }] },
  { name: 'an empty number input (null)', descriptor: videoTypeResource, kind: 'create', body: { VdtName: '分类', VdtSort: null }, errors: [] },
  { name: 'a name blanked on update', descriptor: videoTypeResource, kind: 'update', body: { Id: 3, VdtName: ' ' }, errors: [{ field: 'VdtName', msg: FIELD_MESSAGES.required }] },
  { name: 'an update leaving the name out', descriptor: videoTypeResource, kind: 'update', body: { Id: 3, VdtSort: 2 }, errors: [] },
  { name: 'a link without http', descriptor: usewebResource, kind: 'create', body: { UwName: '网站', UwUrl: 'www.example.com' }, errors: [{ field: 'UwUrl', msg: FIELD_MESSAGES.link }] },
  { name: 'a link with spaces around', descriptor: usewebResource, kind: 'create', body: { UwName: '网站', UwUrl: ' https://e.com/a ' }, errors: [] },
  {
    name: 'two required fields left out',
    descriptor: usewebResource,
    kind: 'create',
    body: { UwSort: 1 },
    errors: [
      { field: 'UwName', msg: FIELD_MESSAGES.required },
      { field: 'UwUrl', msg: FIELD_MESSAGES.required },
    ],
  },
  { name: 'a date before the first day', descriptor: videoResource, kind: 'create', body: { ...video, VdTime: '1999-12-31' }, errors: [{ field: 'VdTime', msg: FIELD_MESSAGES.earliest(DATE_MINIMUM) }] },
  { name: 'a date after the last day', descriptor: videoResource, kind: 'create', body: { ...video, VdTime: '2100-01-01' }, errors: [{ field: 'VdTime', msg: FIELD_MESSAGES.latest(DATE_MAXIMUM) }] },
  { name: 'the first and last days', descriptor: videoResource, kind: 'update', body: { Id: 1, VdTime: DATE_MAXIMUM }, errors: [] },
  { name: 'a date in another form', descriptor: videoResource, kind: 'create', body: { ...video, VdTime: '2020/01/01' }, errors: [{ field: 'VdTime', msg: FIELD_MESSAGES.date }] },
  { name: 'an impossible day', descriptor: videoResource, kind: 'create', body: { ...video, VdTime: '2021-02-30' }, errors: [{ field: 'VdTime', msg: FIELD_MESSAGES.date }] },
  { name: 'a video of spaces', descriptor: videoResource, kind: 'create', body: { ...video, VdUrl: '  ' }, errors: [{ field: 'VdUrl', msg: '请上传视频!' }] },
  { name: 'no video', descriptor: videoResource, kind: 'create', body: { VdtCode: 'a1', VdName: '视频' }, errors: [{ field: 'VdUrl', msg: '请上传视频!' }] },
  {
    name: 'fields the server owns and react-admin’s id',
    descriptor: videoResource,
    kind: 'update',
    body: { id: 1, Id: 1, VdCode: 'x', VdNum: -5, UpdateTime: 'now', VdName: '新名' },
    errors: [],
  },
  { name: 'a content type not allowed', descriptor: articleResource, kind: 'create', body: { ScCode: 'c', SaName: '文章', SaType: 2 }, errors: [{ field: 'SaType', msg: '取值无效' }] },
  { name: 'a flag not allowed', descriptor: articleResource, kind: 'update', body: { Id: 1, IsCommon: 5 }, errors: [{ field: 'IsCommon', msg: '取值无效' }] },
  { name: 'a new member without a password', descriptor: memberResource, kind: 'create', body: { UserName: 'new.user', AuName: '张三', Modules: {} }, errors: [{ field: 'Password', msg: FIELD_MESSAGES.required }] },
  {
    name: 'a short password, kept with its spaces',
    descriptor: memberResource,
    kind: 'create',
    body: { UserName: 'new.user', AuName: '张三', Password: ' abc ' },
    errors: [{ field: 'Password', msg: FIELD_MESSAGES.minLength(PASSWORD_MIN) }],
  },
  { name: 'a login name of other characters', descriptor: memberResource, kind: 'create', body: { UserName: '张 三', AuName: '张三', Password: 'secret1' }, errors: [{ field: 'UserName', msg: '格式不正确' }] },
  { name: 'a member edited without a password', descriptor: memberResource, kind: 'update', body: { Id: 2, UserName: 'old.user', AuName: '李四' }, errors: [] },
];

describe('the dialog’s validators and the server', () => {
  it.each(cases)('give the same field errors: $name', async ({ descriptor, kind, body, errors }) => {
    const key = writeCallKey(descriptor, kind)!;
    const fromServer = await serverErrors(key, body);
    expect(fromServer).toEqual(errors);
    expect(bodyErrors(descriptor, kind, body)).toEqual(fromServer);
  });

  it('give the same field errors for a member’s own password', async () => {
    const key = 'Ajax/UpdateOwnPassword';
    for (const [body, errors] of [
      [{ OldPassword: '', NewPassword: 'abc' }, [{ field: 'OldPassword', msg: FIELD_MESSAGES.required }, { field: 'NewPassword', msg: FIELD_MESSAGES.minLength(PASSWORD_MIN) }]],
      [{ OldPassword: ' old ', NewPassword: '  new-password  ' }, []],
      [{ NewPassword: 'x'.repeat(200) }, [{ field: 'OldPassword', msg: FIELD_MESSAGES.required }, { field: 'NewPassword', msg: FIELD_MESSAGES.maxLength(128) }]],
    ] as [Body, FieldError[]][]) {
      const fromServer = await serverErrors(key, body);
      expect(fromServer).toEqual(errors);
      expect(callBodyErrors(key, body)).toEqual(fromServer);
    }
  });

  it('leave the form’s values as they are', () => {
    const values = { id: 4, Id: 4, VdtName: '  名  ', VdtSort: '7', VdtCode: 'x' };
    const copy = structuredClone(values);
    expect(bodyErrors(videoTypeResource, 'update', values)).toEqual([]);
    expect(values).toEqual(copy);
  });
});

describe('formValidator', () => {
  it('gives react-admin a message by field, for the body the dialog sends', () => {
    // The article form's transform drops an empty date (the server then takes today).
    const toBody = (values: Body) => {
      const out = { ...values };
      if (out.PublishTime === '' || out.PublishTime === null) delete out.PublishTime;
      return out;
    };
    const validate = formValidator(articleResource, 'create', toBody);
    expect(validate({ ScCode: 'c', SaName: ' ', PublishTime: '', SaSort: -1 })).toEqual({
      SaName: FIELD_MESSAGES.required,
      SaSort: FIELD_MESSAGES.minimum(SORT_MINIMUM),
    });
    expect(validate({ ScCode: 'c', SaName: '文章', PublishTime: null })).toEqual({});
  });
});
