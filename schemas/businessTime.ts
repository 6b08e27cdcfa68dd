// The one business time zone (TIME_ZONE, Asia/Shanghai by default): the server's "today" and day
// boundaries, and every date and time the screens show, in the server's render and in the browser
// alike (so the page's text never changes when the browser takes it over). dayjs's utc and
// timezone plugins read the zone's rules from the runtime's Intl data.
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** The name of the meta element by which the server's pages tell the browser the business time zone. */
export const TIME_ZONE_META = 'time-zone';

/** A bare calendar day as stored ('YYYY-MM-DD'): it names a day, not an instant, and is never shifted. */
export const BARE_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether the runtime knows the zone (an IANA name such as Asia/Shanghai). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** One formatter per zone: dayjs's timezone plugin makes one per call, the most of a play count's time. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day ('YYYY-MM-DD') of an instant in the zone. */
export function dayIn(zone: string, at: Date | string | number = new Date()): string {
  let format = dayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', calendar: 'gregory', numberingSystem: 'latn' });
    dayFormats.set(zone, format);
  }
  const parts: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(typeof at === 'string' ? new Date(at) : at)) parts[type] = value;
  return `${parts.year!.padStart(4, '0')}-${parts.month}-${parts.day}`;
}

/** The instant a calendar day ('YYYY-MM-DD') begins in the zone; an invalid date for no such day (2026-13-45). */
export function startOfDayIn(zone: string, day: string): Date {
  const utcMidnight = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(utcMidnight.getTime()) || utcMidnight.toISOString().slice(0, 10) !== day) return new Date(NaN);
  return dayjs.tz(day, zone).toDate();
}

/**
 * A stored date or time as text in the zone: a bare day as it is, an instant (ISO 8601) converted
 * to the zone; empty for nothing or what is not a date.
 */
export function formatIn(zone: string, value: unknown, format = 'YYYY-MM-DD'): string {
  if (value === undefined || value === null || value === '') return '';
  const text = String(value);
  const d = BARE_DAY.test(text) ? dayjs(text) : dayjs(text).tz(zone);
  return d.isValid() ? d.format(format) : '';
}
