import { Fragment, lazy, Suspense, type ReactElement, type ReactNode } from 'react';
import { BooleanInput, NumberInput, PasswordInput, TextInput, type Validator } from 'react-admin';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import { UploadInput } from './UploadInput';
import { dayRange, ZhDateInput } from './ZhDateInput';
import { editableFields, fieldSchema, inputKind, validatorsFor } from './schemaFields';

// TipTap is heavy: only screens with rich text load it.
const RichTextInput = lazy(() => import('ra-input-rich-text').then((m) => ({ default: m.RichTextInput })));

/** Rich text is an article or an answer: room for several paragraphs from the start. */
const RICH_TEXT_SX = { '& .ProseMirror': { minHeight: 320 } } as const;

/** Keeps what the user typed ('' included): react-admin's default turns '' into null. */
const keepText = (value: string) => value;

/** A 1/0 flag of the wire as a switch. */
export function FlagInput({ source, label, helperText }: { source: string; label: string; helperText?: string }) {
  return (
    <BooleanInput
      source={source}
      label={label}
      helperText={helperText ?? false}
      format={(value: unknown) => value === 1 || value === true}
      parse={(checked: boolean) => (checked ? 1 : 0)}
    />
  );
}

export interface SchemaInputProps {
  descriptor: ResourceDescriptor;
  field: string;
  /** Drop `required` (a password kept unchanged on edit). */
  optional?: boolean;
  helperText?: string;
  validate?: Validator[];
}

/** The input a schema field calls for: text, integer, 1/0 switch, http link…, checked by the schema's validators. */
export function SchemaInput({ descriptor, field, optional = false, helperText, validate }: SchemaInputProps): ReactElement | null {
  const schema = fieldSchema(descriptor, field);
  const label = schema.title ?? field;
  const validators = [...validatorsFor(descriptor, field, optional), ...(validate ?? [])];
  const common = { source: field, label, validate: validators, helperText: helperText ?? false } as const;
  switch (inputKind(schema)) {
    case 'flag':
      return <FlagInput source={field} label={label} {...(helperText ? { helperText } : {})} />;
    case 'number':
      return (
        // No min/max/step attributes: the browser would stop the form with its own bubble before
        // the validators' Chinese messages (不能小于0…) could show.
        <NumberInput {...common} />
      );
    case 'password':
      return (
        <PasswordInput
          {...common}
          parse={keepText}
          autoComplete="new-password"
          slotProps={{ htmlInput: { maxLength: schema.maxLength } }}
        />
      );
    case 'date':
      return <ZhDateInput {...common} {...dayRange(schema)} />;
    case 'link':
      return (
        // type="text": type="url" has the browser refuse a link without a scheme in its own words.
        <TextInput {...common} parse={keepText} placeholder="https://" slotProps={{ htmlInput: { inputMode: 'url' } }} />
      );
    case 'richText':
      return (
        <Suspense fallback={null}>
          {/* Opens at an article's height, not one line. */}
          <RichTextInput source={field} label={label} validate={validators} sx={RICH_TEXT_SX} />
        </Suspense>
      );
    case 'fileList':
      return <UploadInput source={field} label={label} kind="handout" multiple />;
    case 'object':
      // Nested values (member modules) need an input of their own: see the screen.
      return null;
    default:
      // No maxLength attribute: the browser would cut a long paste without a word; the validator
      // says 不能超过n个字符 instead.
      return <TextInput {...common} parse={keepText} />;
  }
}

export interface SchemaInputsProps {
  descriptor: ResourceDescriptor;
  /** Fields in display order; default every editable field of the schema. */
  fields?: readonly string[];
  /** Inputs replacing the generated one of a field (uploads, permission editors…). */
  overrides?: Partial<Record<string, ReactNode>>;
}

/** The dialog's inputs, generated from the schema (readOnly fields are the server's: not shown). */
export function SchemaInputs({ descriptor, fields = editableFields(descriptor), overrides = {} }: SchemaInputsProps) {
  return (
    <>
      {fields.map((field) =>
        Object.hasOwn(overrides, field) ? (
          <Fragment key={field}>{overrides[field]}</Fragment>
        ) : (
          <SchemaInput key={field} descriptor={descriptor} field={field} />
        ),
      )}
    </>
  );
}
