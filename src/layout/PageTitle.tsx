import { Title, type TitleProps } from 'react-admin';
import { useHydrated } from '../components/useHydrated';

/**
 * The page's title in the app bar. react-admin's `Title` portals it into the app bar's
 * #react-admin-title, which it looks up while rendering: on the server there is no document, so it
 * renders nothing, while in the browser hydrating a server-rendered page (src/ssr) the app bar is
 * already there and it would render the portal, a mismatch that makes React discard the server's
 * HTML and render the page again. This renders it only in the browser, after hydration. Lists get
 * `title={false}` and this instead.
 */
export function PageTitle(props: TitleProps) {
  return useHydrated() ? <Title {...props} /> : null;
}
