// emotion's style cache for a page the server rendered, taking its styles over where they are.
//
// Why: a rendered page carries the styles of its components as one large <style> element (about
// 65 KB) in front of #root. emotion takes over the elements it recognises (`data-emotion`) by
// moving them: to the end of <head> as its default cache is made, then where its own sheet keeps
// them. The browser parses a moved style sheet again and restyles the whole page: 30-50 ms of a
// 4x-throttled CPU in the task that evaluates the app's code. So the server marks that element
// with an attribute of its own, and the browser's cache adopts it in place: its class names count
// as inserted, and emotion inserts the styles it makes later into an element right after it, so
// that they still come later in the cascade, as they would have.
import createCache, { type EmotionCache } from '@emotion/cache';

/** The key of the app's styles: the prefix of their class names. */
export const STYLE_KEY = 'css';

/** The attribute that marks a rendered page's styles; its value lists their names. */
export const RENDERED_STYLES = 'data-rendered-styles';

/** The server's element of a rendered page's styles (not the global ones: emotion's own). */
export function renderedStylesTag(names: string[], css: string): string {
  return `<style ${RENDERED_STYLES}="${names.join(' ')}">${css}</style>`;
}

/** The cache the browser renders with. */
export function browserStyleCache(): EmotionCache {
  const rendered = document.querySelector<HTMLStyleElement>(`style[${RENDERED_STYLES}]`);
  if (!rendered?.parentNode) return createCache({ key: STYLE_KEY });
  const cache = createCache({ key: STYLE_KEY, container: rendered.parentNode });
  for (const name of rendered.getAttribute(RENDERED_STYLES)!.split(' ')) cache.inserted[name] = true;
  // As emotion's own `hydrate` does, without moving the element: the sheet's next element goes
  // right after its last one, and global styles before its first.
  cache.sheet.tags.push(rendered);
  return cache;
}
