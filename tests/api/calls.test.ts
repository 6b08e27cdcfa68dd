// Every call of docs/api.md (the legacy calls, uploads, login and members) exists: an
// administrator calling it with an empty body gets a validation error or an answer, never a 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Client, type TestServer } from '../helpers/server';

const CALLS = [
  'Ajax/GetVideoTypeListInAdmin', 'Ajax/GetVideoListInAdmin', 'Ajax/GetSingleVideoInAdmin', 'Ajax/UpdateVideoNumAdd',
  'Ajax/UpdateVideoFabulousAdd', 'Ajax/GetVideoDailyListInAdmin', 'Ajax/GetVideoMessageListInAdmin', 'Ajax/AddVideoMessage', 'Ajax/DelVideoMessage',
  'Ajax/AddVideo', 'Ajax/UpdateVideo', 'Ajax/DelVideo', 'Ajax/AddVideoType', 'Ajax/UpdateVideoType', 'Ajax/DelVideoType',
  'Ajax/GetUsewebListInAdmin', 'Ajax/AddUseweb', 'Ajax/UpdateUseweb', 'Ajax/UpdateUsewebSort', 'Ajax/DelUseweb',
  'Ajax/Login', 'Ajax/Logout', 'Ajax/GetCurrentMember', 'Ajax/SignUpload', 'Ajax/GetFileNames',
  'Ajax/CreateMultipartUpload', 'Ajax/SignUploadPart', 'Ajax/ListUploadParts', 'Ajax/CompleteMultipartUpload', 'Ajax/AbortMultipartUpload',
  'Ajax/GetMemberListInAdmin', 'Ajax/GetSingleMemberInAdmin', 'Ajax/AddMember', 'Ajax/UpdateMember', 'Ajax/DelMember',
  ...['Xcx1', 'Xcx3'].flatMap((s) =>
    [
      'GetStandardClassifyListInAdmin', 'GetStandardArticleListInAdmin', 'GetStandardArticleInfoInAdmin',
      'AddStandardArticleInAdmin', 'UpdateStandardArticleInAdmin', 'DelStandardArticleInAdmin',
      'CreateStandardClassifyInAdmin', 'UpdateStandardClassifyInAdmin', 'DeleteStandardClassifyInAdmin',
    ].map((c) => `${s}/${c}`),
  ),
];

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await server.admin();
});
afterAll(() => server?.close());

describe('every call of the API', () => {
  it.each(CALLS)('%s answers with the envelope', async (call) => {
    const res = call === 'Ajax/Logout' ? await server.client().call(`/${call}`, {}) : await admin.call(`/${call}`, {});
    expect(res.status).not.toBe(404);
    expect(res.status).toBeLessThan(500);
    expect(typeof res.body.code).toBe('number');
    expect(typeof res.body.msg).toBe('string');
  });

  it('answers the read calls on GET too', async () => {
    for (const call of CALLS.filter((c) => c.split('/')[1]!.startsWith('Get'))) {
      const res = await admin.get(`/${call}`);
      expect(res.status, call).not.toBe(404);
      expect(res.status, call).toBeLessThan(500);
    }
  });
});
