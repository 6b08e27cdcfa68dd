/**
 * The shape of the product's videos and of their player: video.js's `aspectRatio` option and the
 * CSS box that holds a player's place before video.js has drawn it (a page rendered by the
 * server has no player yet). One number pair, so that the box and the player cannot disagree.
 */
const WIDTH = 16;
const HEIGHT = 9;

/** video.js's `aspectRatio` option. */
export const PLAYER_ASPECT_RATIO = `${WIDTH}:${HEIGHT}`;

/** CSS `aspect-ratio` of the box a player fills. */
export const PLAYER_BOX_ASPECT_RATIO = `${WIDTH} / ${HEIGHT}`;
