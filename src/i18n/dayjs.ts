import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

dayjs.locale('zh-cn');

/** Dates as the legacy screens show them; empty or invalid values show nothing. */
export function formatDate(value: unknown, format = 'YYYY-MM-DD'): string {
  if (value === undefined || value === null || value === '') return '';
  const d = dayjs(value as string);
  return d.isValid() ? d.format(format) : '';
}

export { dayjs };
