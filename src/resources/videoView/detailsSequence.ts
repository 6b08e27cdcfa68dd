// The order of calls of the video details page, kept apart from React so that
// it can be tested with a fake dataProvider: when the Id changes the play count goes up, THEN the
// video is reloaded, THEN its comments; a failed play count stops the reload.
import type { RaRecord } from 'react-admin';
import type { LegacyDataProvider } from '../../dataProvider/index';
import type { Video, VideoComment } from '../../../schemas/types';
import { videoCommentResource } from '../../../schemas/videoComment';

export type VideoRecord = Video & RaRecord;
export type CommentRecord = VideoComment & RaRecord;

/** Rows of the details page's side list (the same category's videos). */
export const SIDE_LIST_SIZE = 30;
/** Comments a page of the details page loads at once (加载更多 loads the next). */
export const COMMENT_PAGE_SIZE = videoCommentResource.pageSize;
/** The message when the play-count call failed; the details reload stops. */
export const PLAY_COUNT_FAILED = '更新视频播放量失败';

export class PlayCountError extends Error {
  constructor(readonly reason: unknown) {
    const detail = reason instanceof Error && reason.message ? `：${reason.message}` : '';
    super(`${PLAY_COUNT_FAILED}${detail}`);
    this.name = 'PlayCountError';
  }
}

export interface CommentPage {
  comments: CommentRecord[];
  total: number;
}

export interface DetailsApi {
  /** UpdateVideoNumAdd { Id }: the new play count. */
  addPlay(id: number): Promise<number>;
  /** GetSingleVideoInAdmin { Id }. */
  getVideo(id: number): Promise<VideoRecord>;
  /**
   * GetVideoMessageListInAdmin { pageIndex: page, pageSize: 15, VdCode, OrderName: 'VM_TIME DESC' }:
   * a page of comments and how many the video has. Not every comment at once: a thousand long
   * ones were hundreds of MB.
   */
  getComments(vdCode: string, page: number): Promise<CommentPage>;
  /** GetVideoListInAdmin { pageIndex: 1, pageSize: 30, VdtCode, OrderName: 'IS_TOP DESC, VD_TIME DESC' }. */
  getSideList(vdtCode: string): Promise<VideoRecord[]>;
  /** UpdateVideoFabulousAdd { Id }. */
  like(id: number): Promise<void>;
}

/** The page's calls over the app's dataProvider (descriptors give call names and default orders). */
export function detailsApi(dataProvider: LegacyDataProvider): DetailsApi {
  return {
    async addPlay(id) {
      const { data } = await dataProvider.call<number>('Ajax', 'UpdateVideoNumAdd', { Id: id });
      return Number(data);
    },
    async getVideo(id) {
      const { data } = await dataProvider.getOne<VideoRecord>('video', { id });
      return data;
    },
    async getComments(vdCode, page) {
      const { data, total } = await dataProvider.getList<CommentRecord>('videoComment', {
        filter: { VdCode: vdCode },
        pagination: { page, perPage: COMMENT_PAGE_SIZE },
        // No sort: the descriptor's default order, VM_TIME DESC.
      });
      return { comments: data, total: total ?? data.length };
    },
    async getSideList(vdtCode) {
      const { data } = await dataProvider.getList<VideoRecord>('video', {
        filter: { VdtCode: vdtCode },
        pagination: { page: 1, perPage: SIDE_LIST_SIZE },
        // No sort: the descriptor's default order, IS_TOP DESC, VD_TIME DESC.
      });
      return data;
    },
    async like(id) {
      await dataProvider.call('Ajax', 'UpdateVideoFabulousAdd', { Id: id });
    },
  };
}

export interface OpenRequest {
  id: number;
  vdtCode: string;
  /** The category changed (or first visit): reload the side list. */
  reloadList: boolean;
}

export interface Opened {
  plays: number;
  video: VideoRecord;
  /** The first page of its comments. */
  comments: CommentPage;
}

export interface Opening {
  /** Play count, then video, then comments; rejects with PlayCountError when the count fails. */
  details: Promise<Opened>;
  /**
   * The side list when asked for: requested once the play count has settled (either way), so
   * that it shows the count just added, and the list stays usable when the count failed.
   */
  list?: Promise<VideoRecord[]>;
}

/** The video, then the first page of its comments: reads only (no play counted). */
export async function readVideo(api: DetailsApi, id: number): Promise<Omit<Opened, 'plays'>> {
  const video = await api.getVideo(id);
  const comments = await api.getComments(video.VdCode ?? '', 1);
  return { video, comments };
}

/** The comments shown of a video once its first page arrives: whose they are, and one page loaded. */
export function firstCommentsOf({ video, comments }: Omit<Opened, 'plays'>): CommentPage & { vdCode?: string; pages: number } {
  return { ...comments, vdCode: video.VdCode, pages: 1 };
}

export function openVideo(api: DetailsApi, request: OpenRequest): Opening {
  const played = api.addPlay(request.id);
  const loadList = () => api.getSideList(request.vdtCode);
  const list = request.reloadList ? played.then(loadList, loadList) : undefined;
  const details = (async () => {
    let plays: number;
    try {
      plays = await played;
    } catch (error) {
      throw new PlayCountError(error);
    }
    return { plays, ...(await readVideo(api, request.id)) };
  })();
  return list ? { details, list } : { details };
}

/** Same category, other video: the side list is kept and its current item counts one more play. */
export function countPlayLocally(list: readonly VideoRecord[], id: number): VideoRecord[] {
  return list.map((v) => (Number(v.Id) === id ? { ...v, VdNum: (v.VdNum ?? 0) + 1 } : v));
}

export type NumberedComment = CommentRecord & { floor: number };

/**
 * Floor numbers over comments listed newest first: the newest has the highest number, `total`
 * (the video's comments, of which the first are shown).
 */
export function withFloors(comments: readonly CommentRecord[], total = comments.length): NumberedComment[] {
  return comments.map((c, index) => ({ ...c, floor: total - index }));
}

/**
 * The first `pages` pages of a video's comments, as many as were shown (after a comment was
 * added or deleted), at least the first.
 */
export async function loadCommentPages(api: Pick<DetailsApi, 'getComments'>, vdCode: string, pages: number): Promise<CommentPage> {
  let shown: CommentPage = { comments: [], total: 0 };
  for (let page = 1; page <= Math.max(1, pages); page++) {
    const next = await api.getComments(vdCode, page);
    shown = appendComments(shown, next);
    if (next.comments.length === 0 || shown.comments.length >= next.total) break;
  }
  return shown;
}

/**
 * A next page joined to the comments shown, without repeating one (by Id): a comment added since
 * the last page moved the rest down a place. Its total is the newer one.
 */
export function appendComments(shown: CommentPage, next: CommentPage): CommentPage {
  const ids = new Set(shown.comments.map((c) => String(c.Id)));
  return { comments: [...shown.comments, ...next.comments.filter((c) => !ids.has(String(c.Id)))], total: next.total };
}

/** A comment without an author name shows 管理员. */
export function authorOf(comment: Pick<VideoComment, 'AuName'>): string {
  return comment.AuName && comment.AuName.trim() !== '' ? comment.AuName : '管理员';
}

/** Rich text with no visible text and no image is empty (a comment is sent only when not empty). */
export function isEmptyRichText(html: string | null | undefined): boolean {
  if (!html) return true;
  if (/<img\b/i.test(html)) return false;
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;/gi, ' ')
    .trim();
  return text === '';
}
