import { createContext, useContext } from 'react';
import { TitlePortal, Title, type TitleProps } from 'react-admin';
import { useHydrated } from '../components/useHydrated';

/**
 * The page's title as the server rendered it. On the server, PageTitle writes it here as the page
 * renders (after the app bar: src/ssr/render.tsx then puts it into the app bar's HTML); in the
 * browser hydrating that page, it holds the same title (from the page's state), so that the app
 * bar's first render there matches the server's.
 */
export class ServerTitle {
  constructor(public title?: string) {}
  /** Called by PageTitle while the server renders (a side channel, like emotion's style cache). */
  declare(title: string) {
    this.title = title;
  }
}
export const ServerTitleContext = createContext<ServerTitle | undefined>(undefined);

/** The id react-admin's Title portals into (its TitlePortal). */
export const TITLE_ID = 'react-admin-title';

/**
 * The page's title in the app bar. react-admin's `Title` portals it into the app bar's
 * #react-admin-title, which it looks up while rendering: on the server there is no document, and
 * in the browser hydrating a server-rendered page (src/ssr) the app bar is already there and it
 * would render the portal, a mismatch that makes React discard the server's HTML. So the portal
 * renders only after hydration, and until then the app bar shows the title the server rendered
 * (AppBarTitle). Lists get `title={false}` and this instead.
 */
export function PageTitle(props: TitleProps) {
  const hydrated = useHydrated();
  const serverTitle = useContext(ServerTitleContext);
  // Not the configurable title (the default): this app has no preferences editor, and its wrapper
  // inserts styles of its own as the page is taken over, which makes the browser restyle the page.
  if (hydrated) return <Title {...props} preferenceKey={false} />;
  if (serverTitle && typeof props.title === 'string') serverTitle.declare(props.title);
  return null;
}

/**
 * The app bar's title element (react-admin's TitlePortal, which the page's Title fills once
 * hydrated), showing the server's title meanwhile: the largest text of many screens, painted with
 * the HTML instead of after the app's code has run.
 */
export function AppBarTitle({ className }: { className?: string }) {
  const hydrated = useHydrated();
  const serverTitle = useContext(ServerTitleContext);
  return <TitlePortal className={className}>{!hydrated && serverTitle?.title ? <span>{serverTitle.title}</span> : null}</TitlePortal>;
}
