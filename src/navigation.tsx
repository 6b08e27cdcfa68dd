// Where the screens are, from their declarations (SCREENS of schemas/index.ts): a screen that links
// to another finds it by the component that renders it, so that a path is written once, where
// the screen is declared.
import { SCREENS, screenLink, type Screen } from '../schemas/index';

type ScreenProps = Readonly<Record<string, string | number>>;

/** The screen rendered by `component` (a file under src/resources/), with these props if it is shared. */
export function screenOf(component: string, props: ScreenProps = {}): Screen {
  const found = SCREENS.find((s) => s.component === component && Object.entries(props).every(([k, v]) => s.props?.[k] === v));
  if (!found) throw new Error(`no screen declares the component ${component} ${JSON.stringify(props)}`);
  return found;
}

/** Where a link to that screen goes: its path without an optional last segment. */
export function pathOf(component: string, props?: ScreenProps): string {
  return screenLink(screenOf(component, props));
}
