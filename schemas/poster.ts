// Where a video's poster lives: beside the video, `<name>.poster.jpg` for `<name>.mp4` (the frame at
// 1 second, made by the server when ffmpeg is available). Shared by the admin app and the server.

const MP4 = /^(.*)\.mp4(?:[?#].*)?$/i;

/**
 * The poster URL of a video URL (or storage key), or '' when the URL is not an MP4. A query string
 * or fragment (a signature, a time) belongs to the video and is not carried over. The poster may
 * not exist (no ffmpeg on the server, an older upload): show the browser's own frame on error.
 */
export function posterUrlOf(videoUrl: string): string {
  const m = MP4.exec(videoUrl);
  return m ? `${m[1]}.poster.jpg` : '';
}
