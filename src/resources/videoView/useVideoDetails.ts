import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { LegacyDataProvider } from '../../dataProvider/index';
import { useInBrowser } from '../../util/useInBrowser';
import {
  appendComments,
  countPlayLocally,
  firstCommentsOf,
  detailsApi,
  loadCommentPages,
  openVideo,
  readVideo,
  type CommentRecord,
  type CommentPage,
  type DetailsApi,
  type Opening,
  type VideoRecord,
} from './detailsSequence';

export interface VideoDetailsState {
  video: VideoRecord | undefined;
  /** The comments loaded so far, newest first: the first pages of `commentTotal`. */
  comments: CommentRecord[];
  commentTotal: number;
  list: VideoRecord[];
  /** The video and its comments are being fetched. */
  loading: boolean;
  listLoading: boolean;
  error: string | undefined;
  listError: string | undefined;
  /** The pages of comments shown, again (after an add or a delete). */
  reloadComments(): Promise<void>;
  /** The next page of comments (加载更多). */
  loadMoreComments(): Promise<void>;
  /** +1 on success (no un-like). */
  like(): Promise<void>;
  /** Opens the current video again (play count, video, comments) after a failure. */
  retry(): void;
}

const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

interface ServerAnswers {
  video: VideoRecord;
  comments: CommentPage;
  list: VideoRecord[];
}

/**
 * What a page rendered by the server shows of the video at its address: the server's render asks
 * for the video, its first comments and the side list (reads only: a render counts no play), and
 * the browser takes the page over with them, so that it arrives whole rather than as spinners.
 * The browser's own opening (the play, then the video and its comments) replaces them when it
 * answers. Nothing is asked here once the page is the browser's (useInBrowser).
 */
function useServerAnswers(calls: DetailsApi, id: number, vdtCode: string, valid: boolean): ServerAnswers | undefined {
  const rendering = !useInBrowser() && valid;
  const read = useQuery({ queryKey: ['videoDetails', 'video', id], queryFn: () => readVideo(calls, id), enabled: rendering });
  const list = useQuery({ queryKey: ['videoDetails', 'list', vdtCode], queryFn: () => calls.getSideList(vdtCode), enabled: rendering });
  if (!rendering || !read.data || !list.data) return undefined;
  return { ...read.data, list: list.data };
}

/**
 * The details page's data for `?Id=&VdtCode=`: on a new Id the play count, then the
 * video, then its comments; the side list reloads only when VdtCode changes, otherwise its current
 * item's play count goes up locally.
 */
export function useVideoDetails(id: number, vdtCode: string, api?: DetailsApi): VideoDetailsState {
  const dataProvider = useDataProvider<LegacyDataProvider>();
  const calls = useMemo(() => api ?? detailsApi(dataProvider), [api, dataProvider]);

  // Results are kept with the request they answer; "loading" is a result not yet in for the
  // current request (no state is set synchronously in the effect). 重试 is a new request.
  const [attempt, setAttempt] = useState(0);
  const key = `${id}|${vdtCode}|${attempt}`;
  const valid = Number.isInteger(id) && id > 0;
  // A page rendered by the server starts with what it showed (the opening below still runs).
  const served = useServerAnswers(calls, id, vdtCode, valid);
  const [loaded, setLoaded] = useState<{ key: string; error?: string }>(() => ({ key: served ? key : '' }));
  const [video, setVideo] = useState<VideoRecord | undefined>(served?.video);
  // The comments shown, whose video they are, and how many pages of them were loaded.
  const [comments, setComments] = useState<{ vdCode?: string; comments: CommentRecord[]; total: number; pages: number }>(() =>
    served ? firstCommentsOf(served) : { comments: [], total: 0, pages: 0 },
  );
  const [listed, setListed] = useState<{ code: string | null; rows: VideoRecord[]; error?: string }>(() =>
    served ? { code: vdtCode, rows: served.list } : { code: null, rows: [] },
  );

  // The category whose list is shown, and the opening in flight: React's development double
  // effects reuse it instead of counting a second play.
  const listedCode = useRef<string | null>(null);
  const inflight = useRef<{ key: string; opening: Opening; reloadList: boolean } | null>(null);

  useEffect(() => {
    if (!valid) return;
    if (inflight.current?.key !== key) {
      const reloadList = listedCode.current !== vdtCode;
      listedCode.current = vdtCode;
      inflight.current = { key, reloadList, opening: openVideo(calls, { id, vdtCode, reloadList }) };
    }
    const { opening, reloadList } = inflight.current;
    let live = true;

    opening.list?.then(
      (rows) => {
        if (live) setListed({ code: vdtCode, rows });
      },
      (e: unknown) => {
        if (live) setListed({ code: vdtCode, rows: [], error: messageOf(e, '视频列表加载失败') });
      },
    );
    opening.details.then(
      (opened) => {
        if (!live) return;
        setVideo(opened.video);
        setComments(firstCommentsOf(opened));
        setLoaded({ key });
        if (!reloadList) setListed((l) => ({ ...l, rows: countPlayLocally(l.rows, id) }));
      },
      (e: unknown) => {
        if (live) setLoaded({ key, error: messageOf(e, '视频加载失败') });
      },
    );
    return () => {
      live = false;
    };
  }, [calls, id, key, valid, vdtCode]);

  const loading = valid && loaded.key !== key;
  const error = !valid ? '视频不存在或参数错误' : loaded.key === key ? loaded.error : undefined;
  const list = listed.rows;
  const listLoading = valid && listed.code !== vdtCode;
  const listError = listed.code === vdtCode ? listed.error : undefined;

  const vdCode = video?.VdCode;
  const shownPages = comments.pages;
  // A page that arrives once another video is shown is dropped.
  const reloadComments = useCallback(async () => {
    if (!vdCode) return;
    const reloaded = await loadCommentPages(calls, vdCode, shownPages);
    setComments((shown) => (shown.vdCode === vdCode ? { ...reloaded, vdCode, pages: Math.max(1, shownPages) } : shown));
  }, [calls, vdCode, shownPages]);

  const loadMoreComments = useCallback(async () => {
    if (!vdCode) return;
    const next = await calls.getComments(vdCode, shownPages + 1);
    setComments((shown) => (shown.vdCode === vdCode ? { ...appendComments(shown, next), vdCode, pages: shownPages + 1 } : shown));
  }, [calls, vdCode, shownPages]);

  const videoId = video?.Id;
  const like = useCallback(async () => {
    if (videoId === undefined) return;
    await calls.like(videoId);
    setVideo((v) => (v && v.Id === videoId ? { ...v, VdFabulous: (v.VdFabulous ?? 0) + 1 } : v));
  }, [calls, videoId]);

  const retry = useCallback(() => {
    // A side list that failed is asked for again too.
    if (listError !== undefined) listedCode.current = null;
    setAttempt((n) => n + 1);
  }, [listError]);

  return {
    video,
    comments: comments.comments,
    commentTotal: comments.total,
    list,
    loading,
    listLoading,
    error,
    listError,
    reloadComments,
    loadMoreComments,
    like,
    retry,
  };
}
