// A day as the product writes it (YYYY-MM-DD) and a calendar in Chinese, whatever the browser's
// language: a native <input type="date"> follows the browser (mm/dd/yyyy in an English one).
// MUI X's date picker over dayjs, the library the app already formats dates with.
import { Suspense, type ReactNode } from 'react';
import { TextField, type SxProps, type Theme } from '@mui/material';
import type { DatePickerProps } from '@mui/x-date-pickers/DatePicker';
import type { Dayjs } from 'dayjs';
import { FieldTitle, InputHelperText, useInput, type Validator } from 'react-admin';
import { FIELD_MESSAGES } from '../../schemas/fields';
// Registers dayjs's zh-cn locale (month and week-day names, Monday first).
import { dayjs } from '../i18n/dayjs';
import { lazyPart } from './lazyPart';

/** The wire's format of a day. */
export const DAY_FORMAT = 'YYYY-MM-DD';

/** What the form holds while the field shows an incomplete or impossible day. */
const INVALID_DAY = 'Invalid Date';

/**
 * MUI X's picker with its Chinese texts and dayjs in zh-cn. Fetched when a date field first shows:
 * it weighs more than the rest of a dialog, and screens sharing code with the dialogs stay without it.
 */
const ChineseDatePicker = lazyPart('ChineseDatePicker', async () => {
  // Each import names what it takes, so that the bundle keeps only that (one locale, not all).
  const [DatePicker, LocalizationProvider, AdapterDayjs, zhCN] = await Promise.all([
    import('@mui/x-date-pickers/DatePicker').then(({ DatePicker }) => DatePicker),
    import('@mui/x-date-pickers/LocalizationProvider').then(({ LocalizationProvider }) => LocalizationProvider),
    import('@mui/x-date-pickers/AdapterDayjs').then(({ AdapterDayjs }) => AdapterDayjs),
    import('@mui/x-date-pickers/locales').then(({ zhCN }) => zhCN),
  ]);
  const localeText = zhCN.components.MuiLocalizationProvider.defaultProps.localeText;
  return function ChineseDatePicker(props: DatePickerProps) {
    return (
      <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="zh-cn" localeText={localeText}>
        <DatePicker {...props} />
      </LocalizationProvider>
    );
  };
});

/** Like react-admin's own inputs (its theme's text field defaults). */
const FIELD_LOOK = { variant: 'filled', size: 'small', margin: 'dense', fullWidth: true } as const;

/** A day the form holds: 'YYYY-MM-DD' (or a time, read as its local day); null when empty. */
function toDayjs(value: unknown): Dayjs | null {
  if (value === undefined || value === null || value === '') return null;
  return dayjs(String(value));
}

/** Typed but not a day (2026-02-3_, 2026-02-30): said at once rather than sent (in a dialog, its schema's `format` says it). */
const completeDay: Validator = (value: unknown) => (value === INVALID_DAY ? FIELD_MESSAGES.date : undefined);

/** The range a date field's schema declares (`formatMinimum` / `formatMaximum`), as the picker's bounds. */
export function dayRange(schema: object): { minDate?: string; maxDate?: string } {
  return {
    ...('formatMinimum' in schema && typeof schema.formatMinimum === 'string' ? { minDate: schema.formatMinimum } : {}),
    ...('formatMaximum' in schema && typeof schema.formatMaximum === 'string' ? { maxDate: schema.formatMaximum } : {}),
  };
}

export interface ZhDateInputProps {
  source: string;
  label: string;
  validate?: Validator | Validator[];
  /** The label's required mark, when the form checks the day as a whole (DialogForm). */
  isRequired?: boolean;
  helperText?: ReactNode;
  /** Earliest and latest day that may be chosen ('YYYY-MM-DD'). */
  minDate?: string | undefined;
  maxDate?: string | undefined;
  /** From the day typed ('YYYY-MM-DD', '' when cleared) to what the form stores (a filter's instant). */
  parse?: (day: string) => unknown;
  /** Shown at once in a list's filters (read by react-admin's filter form). */
  alwaysOn?: boolean;
  sx?: SxProps<Theme>;
}

/**
 * react-admin's date input with MUI X's picker: the form holds 'YYYY-MM-DD' as before (null when
 * empty), the field reads YYYY-MM-DD and is typed section by section from the keyboard, and its
 * calendar names months and week days in Chinese.
 */
export function ZhDateInput({ source, label, validate, isRequired: required, helperText, minDate, maxDate, parse, sx }: ZhDateInputProps) {
  const { id, field, fieldState, isRequired } = useInput({
    source,
    ...(required ? { isRequired: required } : {}),
    validate: [...(Array.isArray(validate) ? validate : validate ? [validate] : []), completeDay],
    ...(parse ? { parse } : {}),
  });
  const { invalid, error } = fieldState;
  const showHelper = helperText !== false || invalid;
  const fieldLabel = <FieldTitle label={label} source={source} isRequired={isRequired} />;
  return (
    // While the picker's code arrives: the same field, empty and inactive, so nothing moves.
    <Suspense fallback={<TextField {...FIELD_LOOK} label={fieldLabel} disabled {...(sx ? { sx } : {})} />}>
      <ChineseDatePicker
        label={fieldLabel}
        value={toDayjs(field.value)}
        // '' when cleared: useInput's parse makes it null (or the filter's own value).
        onChange={(day) => field.onChange(day === null ? '' : day.isValid() ? day.format(DAY_FORMAT) : INVALID_DAY)}
        format={DAY_FORMAT}
        {...(minDate ? { minDate: dayjs(minDate) } : {})}
        {...(maxDate ? { maxDate: dayjs(maxDate) } : {})}
        inputRef={field.ref}
        {...(sx ? { sx } : {})}
        slotProps={{
          // The calendar's pop-up is a dialog: named after its field.
          popper: { 'aria-label': label },
          textField: {
            ...FIELD_LOOK,
            id,
            name: field.name,
            onBlur: field.onBlur,
            className: `ra-input ra-input-${source}`,
            error: invalid,
            helperText: showHelper ? <InputHelperText error={error?.message} helperText={helperText} /> : null,
          },
        }}
      />
    </Suspense>
  );
}
