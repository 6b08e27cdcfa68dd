// The app speaks Chinese only: react-admin's messages, the resource and field names taken from
// the schemas (titles and descriptor labels). Dates are dayjs in zh-cn (./dayjs, imported by what
// shows dates: not by every page).
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';
import { RESOURCES } from '../../schemas/index';
import { raChineseMessages } from './raChinese';

type FieldTitles = Record<string, string>;

function fieldTitles(properties: Record<string, unknown>): FieldTitles {
  const out: FieldTitles = {};
  for (const [name, prop] of Object.entries(properties)) {
    const title = (prop as { title?: unknown }).title;
    if (typeof title === 'string') out[name] = title;
  }
  return out;
}

/** `resources.<name>.name` and `.fields.<field>` from the descriptors, so labels are never restated. */
export const resourceMessages = Object.fromEntries(
  RESOURCES.map((d) => [d.resource, { name: d.label, fields: fieldTitles(d.schema.properties) }]),
);

export const zhMessages: TranslationMessages = { ...raChineseMessages, resources: resourceMessages };

/** The app's only locale. */
export const APP_LOCALE = 'zh-CN';

export const i18nProvider = polyglotI18nProvider(() => zhMessages, APP_LOCALE, [{ locale: APP_LOCALE, name: '简体中文' }], {
  allowMissing: true,
});
