import { useMemo } from 'react';
import DOMPurify from 'dompurify';
import { Box, type SxProps, type Theme } from '@mui/material';
import { createSanitizer } from '../../schemas/richText';
import { useHydrated } from './useHydrated';

// One sanitiser for the app, with the allow-list the server applies on write (defence in depth).
// Made on first use: DOMPurify needs the browser's DOM, which the server's render (src/ssr) lacks.
let sanitizer: ((html: string) => string) | undefined;
const sanitize = (html: string) => (sanitizer ??= createSanitizer(DOMPurify))(html);

/** Stored rich text (comments, questions, answers, article content), sanitised before display. */
export function RichTextView({ html, sx }: { html: string | null | undefined; sx?: SxProps<Theme> }) {
  // In the browser only: a server-rendered page shows the text after hydration (React does not
  // patch inner HTML that differs while hydrating, so both first renders leave it empty).
  const hydrated = useHydrated();
  const clean = useMemo(() => (hydrated ? sanitize(html ?? '') : ''), [html, hydrated]);
  return (
    <Box
      className="rich-text"
      sx={[{ '& img': { maxWidth: '100%' }, '& table': { borderCollapse: 'collapse' } }, ...(Array.isArray(sx) ? sx : [sx])]}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
