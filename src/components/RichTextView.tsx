import { useLayoutEffect, useMemo, useRef } from 'react';
import DOMPurify from 'dompurify';
import { Box, type SxProps, type Theme } from '@mui/material';
import { createSanitizer } from '../../schemas/richText';
import { sanitizeOnServer } from '../util/serverSanitizer';

// One sanitiser for the app, with the allow-list the server applies on write (defence in depth).
// Made on first use, not as the module loads.
let sanitizer: ((html: string) => string) | undefined;
/** The browser's DOMPurify; in the server's render (no document), the server's (serverSanitizer.ts). */
const sanitize = (html: string) => (typeof window === 'undefined' ? sanitizeOnServer(html) : (sanitizer ??= createSanitizer(DOMPurify))(html));

/**
 * Stored rich text (comments, questions, answers, article content), sanitised before display,
 * on a page the server renders too: it arrives with its rich text, and nothing below it moves
 * when the browser takes the page over.
 */
export function RichTextView({ html, sx }: { html: string | null | undefined; sx?: SxProps<Theme> }) {
  const clean = useMemo(() => sanitize(html ?? ''), [html]);
  const ref = useRef<HTMLDivElement>(null);
  // The browser's sanitiser has the last word: a takeover keeps the server's markup as it is,
  // which is the same unless the server could not sanitise the text (too deeply nested, say).
  useLayoutEffect(() => {
    if (ref.current && ref.current.innerHTML !== clean) ref.current.innerHTML = clean;
  }, [clean]);
  return (
    <Box
      ref={ref}
      className="rich-text"
      sx={[{ '& img': { maxWidth: '100%' }, '& table': { borderCollapse: 'collapse' } }, ...(Array.isArray(sx) ? sx : [sx])]}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
