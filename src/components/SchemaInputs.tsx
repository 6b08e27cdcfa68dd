import { Fragment, lazy, Suspense, type ReactElement, type ReactNode } from 'react';
import {
  BooleanInput,
  NumberInput,
  PasswordInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  type Validator,
} from 'react-admin';
import { Box, Typography } from '@mui/material';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import { UploadInput } from './UploadInput';
import { VideoUploadPlaceholder } from './video/VideoUploadFrame';
import { dayRange, ZhDateInput } from './ZhDateInput';
import { choicesOf, fieldKind, fieldSchema, formFields, referenceOf, referenceTarget } from './schemaFields';

// TipTap is heavy: only screens with rich text load it.
const RichTextInput = lazy(() => import('ra-input-rich-text').then((m) => ({ default: m.RichTextInput })));
// Uppy's multipart upload and the MP4 check: only forms with a video load them.
const VideoUploadInput = lazy(() => import('./video/VideoUploadInput').then((m) => ({ default: m.VideoUploadInput })));

/** Rich text is an article or an answer: room for several paragraphs from the start. */
const RICH_TEXT_MIN_HEIGHT = 320;
const RICH_TEXT_SX = { '& .ProseMirror': { minHeight: RICH_TEXT_MIN_HEIGHT } } as const;
/**
 * The rich text input's height as drawn with an empty text: its label, toolbar (52 px), editor and
 * helper line. Its stand-in takes it while TipTap's code loads, so that a dialog does not grow by
 * it when the code arrives (tests/browser/dialogs.test.ts holds the code back and compares).
 */
const RICH_TEXT_INPUT_HEIGHT = RICH_TEXT_MIN_HEIGHT + 104;

/** Rich text's place while its editor's code loads: its label, then the editor's room. */
function RichTextPlaceholder({ label }: { label: string }) {
  return (
    <Box aria-busy="true" sx={{ width: '100%', height: RICH_TEXT_INPUT_HEIGHT }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}

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

/**
 * A reference as a select of the referenced records' names (react-admin's ReferenceInput): the
 * records are read whole (All), matched by the referenced field (`meta.idField`, which the
 * dataProvider makes their id), and named by the target's `nameField`.
 */
export function ReferenceSelect({
  descriptor,
  field,
  label,
  validate,
  isRequired,
  helperText,
  emptyText,
}: {
  descriptor: ResourceDescriptor;
  field: string;
  label: string;
  validate?: Validator[];
  isRequired?: boolean;
  helperText?: string | false;
  /** The choice meaning "none" (a filter's 全部); none: a value must be chosen. */
  emptyText?: string;
}) {
  const reference = referenceOf(descriptor, field)!;
  const target = referenceTarget(reference);
  return (
    <ReferenceInput
      source={field}
      reference={target.resource}
      filter={{ All: 1 }}
      queryOptions={{ meta: { idField: target.idField } }}
    >
      <SelectInput
        label={label}
        optionText={target.nameField}
        helperText={helperText ?? false}
        {...(validate ? { validate } : {})}
        {...(isRequired ? { isRequired } : {})}
        {...(emptyText === undefined ? { emptyText: '请选择', emptyValue: '' } : { emptyText, emptyValue: '' })}
      />
    </ReferenceInput>
  );
}

export interface SchemaInputProps {
  descriptor: ResourceDescriptor;
  field: string;
  /** No required mark (a password kept unchanged on edit). */
  optional?: boolean;
  /** The required mark where the call asks more than the schema (a new member's password). */
  isRequired?: boolean;
  helperText?: string;
  /**
   * Further rules of this input. Not run inside DialogForm, which checks the whole form against the
   * call's schema (react-hook-form runs no input's rules then): give a dialog's rules to its `validate`.
   */
  validate?: Validator[];
}

/** The input a schema field's kind calls for (schemaFields.ts fieldKind), with its hint (`description`). */
export function SchemaInput({ descriptor, field, optional = false, isRequired, helperText, validate }: SchemaInputProps): ReactElement | null {
  const schema = fieldSchema(descriptor, field);
  const label = schema.title ?? field;
  const hint = helperText ?? schema.description;
  const validators = validate ?? [];
  // The label's asterisk: the dialog checks the schema as a whole (formValidation.ts).
  const required = isRequired ?? (!optional && (descriptor.schema.required?.includes(field) ?? false));
  const common = { source: field, label, validate: validators, isRequired: required, helperText: hint ?? false } as const;
  switch (fieldKind(descriptor, field)) {
    case 'flag':
      return <FlagInput source={field} label={label} {...(hint ? { helperText: hint } : {})} />;
    case 'choice':
      // A choice with a default always holds one of its values: no blank entry, which the server refuses.
      return <SelectInput {...common} isRequired={required || schema.default !== undefined} choices={choicesOf(schema)} />;
    case 'reference':
      return <ReferenceSelect descriptor={descriptor} field={field} label={label} validate={validators} isRequired={required} helperText={hint ?? false} />;
    case 'number':
      return (
        // No min/max/step attributes: the browser would stop the form with its own bubble before
        // the schema's Chinese messages (不能小于0…) could show.
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
        <Suspense fallback={<RichTextPlaceholder label={label} />}>
          {/* Opens at an article's height, not one line. */}
          <RichTextInput source={field} label={label} validate={validators} isRequired={required} sx={RICH_TEXT_SX} {...(hint ? { helperText: hint } : {})} />
        </Suspense>
      );
    case 'fileList':
      return <UploadInput source={field} label={label} kind={descriptor.files?.[field] ?? 'handout'} multiple {...(hint ? { helperText: hint } : {})} />;
    case 'image':
      return <UploadInput source={field} label={label} kind="image" {...(hint ? { helperText: hint } : {})} />;
    case 'video':
      return (
        // Its place held while its code arrives: the dialog keeps its size.
        <Suspense fallback={<VideoUploadPlaceholder source={field} label={label} />}>
          <VideoUploadInput source={field} label={label} validate={validators} />
        </Suspense>
      );
    case 'object':
      // Nested values (member modules) need an input of their own: see the screen.
      return null;
    case 'longText':
      return <TextInput {...common} parse={keepText} multiline minRows={3} />;
    default:
      // No maxLength attribute: the browser would cut a long paste without a word; the schema's
      // rule says 不能超过n个字符 instead.
      return <TextInput {...common} parse={keepText} />;
  }
}

export interface SchemaInputsProps {
  descriptor: ResourceDescriptor;
  /** Fields in display order; default the schema's form fields (descriptor.ts formFields). */
  fields?: readonly string[];
  /** Fields the screen sets itself (the tab's category, the tree's parent): no input. */
  fixed?: readonly string[];
  /** Inputs replacing the generated one of a field (permission editors…). */
  overrides?: Partial<Record<string, ReactNode>>;
}

/** The dialog's inputs, generated from the schema in its order (readOnly fields are the server's: not shown). */
export function SchemaInputs({ descriptor, fields = formFields(descriptor), fixed = [], overrides = {} }: SchemaInputsProps) {
  return (
    <>
      {fields
        .filter((field) => !fixed.includes(field))
        .map((field) =>
          Object.hasOwn(overrides, field) ? (
            <Fragment key={field}>{overrides[field]}</Fragment>
          ) : (
            <SchemaInput key={field} descriptor={descriptor} field={field} />
          ),
        )}
    </>
  );
}
