import { TitlePortal } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { titleAt } from '../navigation';

/**
 * The page's title in the app bar, from the declared screen at this address (titleAt): rendered
 * with the page, so that a page the server renders arrives with its title, rather than through
 * react-admin's Title, whose portal exists only in the browser.
 */
export function ScreenTitle() {
  return <TitlePortal>{titleAt(useLocation())}</TitlePortal>;
}
