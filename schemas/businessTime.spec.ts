// dayIn reads the calendar day from the runtime's Intl data without dayjs (it runs on every play
// and like); it must name the same day as dayjs's timezone plugin, which the rest of this file uses.
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { dayIn } from './businessTime';

const ZONES = ['Asia/Shanghai', 'UTC', 'America/Los_Angeles', 'Europe/Berlin', 'Etc/GMT-14', 'Etc/GMT+12', 'Asia/Kathmandu', 'Australia/Lord_Howe'];

describe('dayIn', () => {
  it("names the same day as dayjs's timezone plugin, around midnights and clock changes", () => {
    // Every 5 h 7 min over a year: the instants drift across every hour of the day, midnights and clock changes among them.
    const start = Date.UTC(2025, 0, 1);
    for (const zone of ZONES) {
      for (let at = start; at < start + 366 * 86_400_000; at += 307 * 60_000) {
        expect(dayIn(zone, at), `${zone} ${new Date(at).toISOString()}`).toBe(dayjs(at).tz(zone).format('YYYY-MM-DD'));
      }
    }
  });

  it('takes a Date, an ISO text or a number, and today by default', () => {
    expect(dayIn('Asia/Shanghai', '2026-03-01T16:00:00Z')).toBe('2026-03-02');
    expect(dayIn('Asia/Shanghai', new Date('2026-03-01T15:59:59Z'))).toBe('2026-03-01');
    expect(dayIn('UTC', Date.UTC(2026, 2, 1, 23, 30))).toBe('2026-03-01');
    expect(dayIn('UTC')).toBe(new Date().toISOString().slice(0, 10));
  });

  it('refuses a zone the runtime does not know', () => {
    expect(() => dayIn('Mars/Olympus', 0)).toThrow(RangeError);
  });
});
