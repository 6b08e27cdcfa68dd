/**
 * Rich text sanitised in the server's render. DOMPurify needs a document, which the render has
 * not: the server gives it its own DOMPurify over jsdom, with the same allow-list
 * (server/src/renderWorker.ts calls `setRichTextSanitizer`, re-exported by src/ssr/render.tsx), so
 * that a page arrives with its rich text rather than growing once the browser has taken it over.
 */
let serverSanitize: ((html: string) => string) | undefined;

export function setRichTextSanitizer(sanitize: (html: string) => string): void {
  serverSanitize = sanitize;
}

/** `html` sanitised by the server's sanitiser; nothing without one (the browser then fills it in). */
export function sanitizeOnServer(html: string): string {
  return serverSanitize ? serverSanitize(html) : '';
}
