import { Link as MuiLink } from '@mui/material';
import { HTTP_URL_PATTERN } from '../../schemas/fields';

const HTTP_URL = new RegExp(HTTP_URL_PATTERN, 'i');

export function isHttpUrl(value: unknown): value is string {
  return typeof value === 'string' && HTTP_URL.test(value);
}

/**
 * A link only when the URL is http(s) (react-admin's UrlField renders any href, javascript:
 * included); anything else shows as plain text.
 */
export function SafeLink({ href, children }: { href: unknown; children?: React.ReactNode }) {
  const text = children ?? (typeof href === 'string' ? href : '');
  if (!isHttpUrl(href)) return <span>{text}</span>;
  return (
    <MuiLink href={href} target="_blank" rel="noopener noreferrer" underline="hover">
      {text}
    </MuiLink>
  );
}
