import { useEffect } from 'react';

/**
 * Names the browser tab while the component is shown. The server sends a page's own title in its
 * HTML (ssr/render.tsx), so on a page it rendered this changes nothing.
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
