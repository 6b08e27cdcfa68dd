import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { DEFAULT_TIME_ZONE, dayIn, formatIn, isTimeZone, TIME_ZONE_META } from '../../schemas/businessTime';

dayjs.locale('zh-cn');

let zone = DEFAULT_TIME_ZONE;
if (typeof document !== 'undefined') {
  const given = document.querySelector<HTMLMetaElement>(`meta[name="${TIME_ZONE_META}"]`)?.content;
  if (given && isTimeZone(given)) zone = given;
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
  return formatIn(zone, value, format);
}

/** Today in the business time zone ('YYYY-MM-DD'): the day a new record's date starts at. */
export function today(): string {
  return dayIn(zone);
}

export { dayjs };
