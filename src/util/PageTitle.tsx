import { Title, type TitleProps } from 'react-admin';
import { useInBrowser } from './useInBrowser';

/**
 * react-admin's Title (the page's title in the app bar), rendered once the page is the browser's.
 * Title looks for the app bar's title element while it renders: a page the server renders has no
 * such element there, its HTML in the browser has, and the takeover would render differently from
 * the server.
 */
export function PageTitle(props: TitleProps) {
  return useInBrowser() ? <Title {...props} /> : null;
}
