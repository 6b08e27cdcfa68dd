// What a page the server sends tells the app in its head, besides the business time zone
// (TIME_ZONE_META of businessTime.ts): that its visitor has no session.

/** The meta element by which a page sent without a session says so: `<meta name="session" content="none">`. */
export const SESSION_META = 'session';

/** Its content. */
export const NO_SESSION = 'none';
