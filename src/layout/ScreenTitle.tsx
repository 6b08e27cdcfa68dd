import { TitlePortal } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { documentTitle, titleAt } from '../navigation';
import { useDocumentTitle } from '../util/useDocumentTitle';

/**
 * The page's title in the app bar, from the declared screen at this address (titleAt): rendered
 * with the page, so that a page the server renders arrives with its title, rather than through
 * react-admin's Title, whose portal exists only in the browser. The browser's tab names it too.
 */
export function ScreenTitle() {
  const title = titleAt(useLocation());
  useDocumentTitle(documentTitle(title));
  return <TitlePortal>{title}</TitlePortal>;
}
