import { useMemo } from 'react';
import DOMPurify from 'dompurify';
import { Box, type SxProps, type Theme } from '@mui/material';
import { createSanitizer } from '../../schemas/richText';

// One sanitiser for the app, with the allow-list the server applies on write (defence in depth).
// Made on first use, not as the module loads.
let sanitizer: ((html: string) => string) | undefined;
const sanitize = (html: string) => (sanitizer ??= createSanitizer(DOMPurify))(html);

/** Stored rich text (comments, questions, answers, article content), sanitised before display. */
export function RichTextView({ html, sx }: { html: string | null | undefined; sx?: SxProps<Theme> }) {
  const clean = useMemo(() => sanitize(html ?? ''), [html]);
  return (
    <Box
      className="rich-text"
      sx={[{ '& img': { maxWidth: '100%' }, '& table': { borderCollapse: 'collapse' } }, ...(Array.isArray(sx) ? sx : [sx])]}
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
