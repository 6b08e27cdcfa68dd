import { describe, expect, it, vi } from 'vitest';
import { legacyDataProvider } from '../../dataProvider/index';
import type { HttpClient, HttpResponse } from '../../http/index';
import {
  appendComments,
  authorOf,
  countPlayLocally,
  detailsApi,
  isEmptyRichText,
  loadCommentPages,
  openVideo,
  PLAY_COUNT_FAILED,
  PlayCountError,
  withFloors,
  type CommentRecord,
  type DetailsApi,
  type VideoRecord,
} from './detailsSequence';

const video = (Id: number, VdNum = 0): VideoRecord =>
  ({ id: Id, Id, VdCode: `code-${Id}`, VdtCode: 'T1', VdName: `视频${Id}`, VdUrl: '/files/v.mp4', VdNum }) as VideoRecord;
const comment = (Id: number, extra: Partial<CommentRecord> = {}): CommentRecord =>
  ({ id: Id, Id, VdCode: 'code-7', VmDes: `<p>${Id}</p>`, ...extra }) as CommentRecord;

/** A fake API recording the order of calls; `fail` makes the play count fail. */
function fakeApi({ fail = false } = {}) {
  const calls: string[] = [];
  const api: DetailsApi = {
    addPlay: vi.fn(async (id: number) => {
      calls.push(`addPlay ${id}`);
      if (fail) throw new Error('网络错误');
      return 18;
    }),
    getVideo: vi.fn(async (id: number) => {
      calls.push(`getVideo ${id}`);
      return video(id, 18);
    }),
    getComments: vi.fn(async (vdCode: string, page: number) => {
      calls.push(`getComments ${vdCode} ${page}`);
      return { comments: [comment(2), comment(1)], total: 2 };
    }),
    getSideList: vi.fn(async (vdtCode: string) => {
      calls.push(`getSideList ${vdtCode}`);
      return [video(7, 18), video(8, 3)];
    }),
    like: vi.fn(async () => undefined),
  };
  return { api, calls };
}

describe('opening a video on the details page', () => {
  it('counts the play, THEN reloads the video, THEN its comments', async () => {
    const { api, calls } = fakeApi();
    const { details, list } = openVideo(api, { id: 7, vdtCode: 'T1', reloadList: false });
    await expect(details).resolves.toMatchObject({ plays: 18, video: { Id: 7 }, comments: { comments: [{ Id: 2 }, { Id: 1 }], total: 2 } });
    expect(list).toBeUndefined();
    expect(calls).toEqual(['addPlay 7', 'getVideo 7', 'getComments code-7 1']);
  });

  it('reloads the side list of a new category once the play is counted', async () => {
    const { api, calls } = fakeApi();
    const opening = openVideo(api, { id: 7, vdtCode: 'T1', reloadList: true });
    await opening.details;
    await expect(opening.list).resolves.toHaveLength(2);
    expect(calls[0]).toBe('addPlay 7');
    expect(calls).toContain('getSideList T1');
  });

  it('stops when the play count fails: no video or comment reload, the error says so', async () => {
    const { api, calls } = fakeApi({ fail: true });
    const opening = openVideo(api, { id: 7, vdtCode: 'T1', reloadList: true });
    await expect(opening.details).rejects.toBeInstanceOf(PlayCountError);
    await expect(opening.details).rejects.toThrow(PLAY_COUNT_FAILED);
    // The side list still loads, so that another video can be chosen.
    await expect(opening.list).resolves.toHaveLength(2);
    expect(calls).toEqual(['addPlay 7', 'getSideList T1']);
    expect(api.getVideo).not.toHaveBeenCalled();
    expect(api.getComments).not.toHaveBeenCalled();
  });

  it('counts the play locally on the kept side list when only the Id changed', () => {
    const list = [video(7, 18), video(8, 3)];
    expect(countPlayLocally(list, 8).map((v) => v.VdNum)).toEqual([18, 4]);
    expect(list[1]!.VdNum).toBe(3);
  });
});

describe('comments', () => {
  it('numbers floors so that the newest (listed first) has the highest', () => {
    const floors = withFloors([comment(30), comment(20), comment(10)]).map((c) => [c.Id, c.floor]);
    expect(floors).toEqual([
      [30, 3],
      [20, 2],
      [10, 1],
    ]);
    expect(withFloors([])).toEqual([]);
    // The first of 42: floors count from the total, not from the comments loaded.
    expect(withFloors([comment(30), comment(20)], 42).map((c) => c.floor)).toEqual([42, 41]);
  });

  it('joins a next page without repeating a comment that moved down a place', () => {
    const joined = appendComments({ comments: [comment(5), comment(4)], total: 4 }, { comments: [comment(4), comment(3)], total: 5 });
    expect(joined.comments.map((c) => c.Id)).toEqual([5, 4, 3]);
    expect(joined.total).toBe(5);
  });

  it('reloads as many pages as were shown, and stops at the last', async () => {
    const all = [6, 5, 4, 3, 2, 1].map((Id) => comment(Id));
    const pages: number[] = [];
    const api = {
      getComments: async (_vdCode: string, page: number) => {
        pages.push(page);
        return { comments: all.slice((page - 1) * 2, page * 2), total: all.length };
      },
    };
    expect((await loadCommentPages(api, 'v', 2)).comments.map((c) => c.Id)).toEqual([6, 5, 4, 3]);
    expect(pages).toEqual([1, 2]);
    pages.length = 0;
    expect((await loadCommentPages(api, 'v', 9)).comments).toHaveLength(6);
    expect(pages).toEqual([1, 2, 3]);
    pages.length = 0;
    expect((await loadCommentPages(api, 'v', 0)).comments).toHaveLength(2);
    expect(pages).toEqual([1]);
  });

  it('shows 管理员 for a comment without an author name', () => {
    expect(authorOf({ AuName: '' })).toBe('管理员');
    expect(authorOf({})).toBe('管理员');
    expect(authorOf({ AuName: '张三' })).toBe('张三');
  });

  it('treats rich text without text or image as empty', () => {
    expect(isEmptyRichText('')).toBe(true);
    expect(isEmptyRichText('<p></p>')).toBe(true);
    expect(isEmptyRichText('<p> &nbsp; </p><p><br></p>')).toBe(true);
    expect(isEmptyRichText('<p>好</p>')).toBe(false);
    expect(isEmptyRichText('<p><img src="/files/a.png"></p>')).toBe(false);
  });
});

describe('the legacy calls of the details page', () => {
  function mockClient(data: unknown) {
    const client = vi.fn<HttpClient>(
      async (): Promise<HttpResponse> => ({
        status: 200,
        headers: new Headers(),
        body: '',
        json: { code: 0, msg: '操作成功!', data, total: Array.isArray(data) ? data.length : undefined },
      }),
    );
    const sent = () =>
      client.mock.calls.map(([url, options]) => [url, JSON.parse(String(options?.body)) as unknown] as const);
    return { client, sent };
  }

  it('lists the comments by pages and the side list with the legacy parameters and orders', async () => {
    const { client, sent } = mockClient([]);
    const api = detailsApi(legacyDataProvider('', client));
    await api.getComments('V1', 2);
    await api.getSideList('T1');
    expect(sent()).toEqual([
      ['/Ajax/GetVideoMessageListInAdmin', { pageIndex: 2, pageSize: 15, OrderName: 'VM_TIME DESC', VdCode: 'V1' }],
      ['/Ajax/GetVideoListInAdmin', { pageIndex: 1, pageSize: 30, OrderName: 'IS_TOP DESC, VD_TIME DESC', VdtCode: 'T1' }],
    ]);
  });

  it('counts plays and likes by Id and reads the new count', async () => {
    const { client, sent } = mockClient(21);
    const api = detailsApi(legacyDataProvider('', client));
    await expect(api.addPlay(7)).resolves.toBe(21);
    await api.like(7);
    expect(sent()).toEqual([
      ['/Ajax/UpdateVideoNumAdd', { Id: 7 }],
      ['/Ajax/UpdateVideoFabulousAdd', { Id: 7 }],
    ]);
  });
});
