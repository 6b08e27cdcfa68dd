import { useMemo } from 'react';
import DOMPurify from 'dompurify';
import { Box, type SxProps, type Theme } from '@mui/material';
import { createSanitizer } from '../../schemas/richText';
import { useInBrowser } from '../util/useInBrowser';

// One sanitiser for the app, with the allow-list the server applies on write (defence in depth).
// Made on first use, not as the module loads.
let sanitizer: ((html: string) => string) | undefined;
const sanitize = (html: string) => (sanitizer ??= createSanitizer(DOMPurify))(html);

/**
 * Stored rich text (comments, questions, answers, article content), sanitised before display. In
 * the browser only: DOMPurify needs a document, so a page the server renders has it empty until
 * the browser has taken it over.
 */
export function RichTextView({ html, sx }: { html: string | null | undefined; sx?: SxProps<Theme> }) {
  const inBrowser = useInBrowser();
  const clean = useMemo(() => (inBrowser ? sanitize(html ?? '') : ''), [html, inBrowser]);
  return (
    <Box
      className="rich-text"
      sx={[{ '& img': { maxWidth: '100%' }, '& table': { borderCollapse: 'collapse' } }, ...(Array.isArray(sx) ? sx : [sx])]}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
