// video.js's core build (no HLS/DASH engine: the videos are MP4) ships without its own types:
// it is the same player API as the full build.
declare module 'video.js/core.es.js' {
  import videojs from 'video.js';
  export default videojs;
}
