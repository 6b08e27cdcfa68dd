// The link to a video's details page, in a file of its own: home links its lists' videos there
// without the video cards' code.
import type { Video } from '../../../schemas/types';
import { pathOf } from '../../navigation';

/** The 视频详情 route of a video. */
export function detailsPath(video: Pick<Video, 'Id' | 'VdtCode'>): string {
  const query = new URLSearchParams({ Id: String(video.Id ?? ''), VdtCode: video.VdtCode });
  return `${pathOf('videoView/VideoDetails')}?${query.toString()}`;
}
