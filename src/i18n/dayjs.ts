import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { DEFAULT_TIME_ZONE, dayIn, formatIn, isTimeZone, TIME_ZONE_META } from '../../schemas/businessTime';

dayjs.locale('zh-cn');

let zone: string | undefined;

/**
 * The business time zone: the page's meta element says it. Read on first use, not as the app's
 * code loads: checking a zone loads the runtime's time-zone data (about 20 ms, once), which as
 * part of the start would lengthen its longest task.
 */
function businessZone(): string {
  if (zone === undefined) {
    const given = typeof document === 'undefined' ? undefined : document.querySelector<HTMLMetaElement>(`meta[name="${TIME_ZONE_META}"]`)?.content;
    zone = given && isTimeZone(given) ? given : DEFAULT_TIME_ZONE;
  }
  return zone;
}

/** Sets the business time zone: the server's render does, from its configuration, before it renders. */
export function setTimeZone(name: string): void {
  zone = name;
}

/**
 * Dates as the legacy screens show them, in the business time zone (so the server's render and the
 * browser write the same text); empty or invalid values show nothing.
 */
export function formatDate(value: unknown, format = 'YYYY-MM-DD'): string {
  return formatIn(businessZone(), value, format);
}

/** Today in the business time zone ('YYYY-MM-DD'): the day a new record's date starts at. */
export function today(): string {
  return dayIn(businessZone());
}

export { dayjs };
