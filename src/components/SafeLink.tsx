import { Link as MuiLink } from '@mui/material';
import { FILE_URL_PATTERN, HTTP_URL_PATTERN } from '../../schemas/fields';

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

const FILE_URL = new RegExp(FILE_URL_PATTERN);

/** A stored file's URL (this server's /files/… or an http(s) address), never another scheme. */
export function isFileUrl(value: unknown): value is string {
  return typeof value === 'string' && FILE_URL.test(value);
}

/**
 * A stored file as a download link under its original name: this server answers /files/… with
 * that name (Content-Disposition), and `download` names it for a browser that keeps it. A URL that
 * is not a stored file's shows as the name alone.
 */
export function FileLink({ url, name }: { url: unknown; name: string }) {
  if (!isFileUrl(url)) return <span>{name}</span>;
  return (
    // Another site's file opens beside the admin (a browser ignores `download` across origins).
    <MuiLink href={url} download={name} {...(url.startsWith('/') ? {} : { target: '_blank' })} rel="noopener noreferrer" underline="hover" sx={{ wordBreak: 'break-all' }}>
      {name}
    </MuiLink>
  );
}
