/**
 * A User Timing mark set when the categories reach the tree (before it is built): DevTools shows
 * it, and `npm run bench:ui` times the tree's own build and render from it.
 */
export const TREE_DATA_MARK = 'category-tree:data';
