// Reads what the screens need from an entity's JSON schema and descriptor: titles, the kind of each
// field (which input edits it, which cell shows it, which filter narrows by it: the table of
// docs/architecture.md) and its choices. Nothing here restates a field by hand.
import { formFields, type ResourceDescriptor } from '../../schemas/descriptor';
import type { FieldSchema } from '../../schemas/fieldKinds';
import { today as todayInZone } from '../i18n/dayjs';

// The kinds of field live beside the schemas, where the server reads them too.
export {
  choiceLabel,
  choicesOf,
  fieldKind,
  fieldSchema,
  fieldTitle,
  isFlag,
  referenceOf,
  referenceTarget,
  type FieldKind,
  type FieldSchema,
} from '../../schemas/fieldKinds';

/** Fields a request may set: the schema's own, minus what the server owns (readOnly). */
export function editableFields(descriptor: ResourceDescriptor): string[] {
  return Object.entries(descriptor.schema.properties)
    .filter(([, prop]) => !(prop as FieldSchema).readOnly)
    .map(([name]) => name);
}

export { formFields };

/**
 * What a new record starts with in the dialog: the schema's `default` keywords, and the
 * descriptor's `createDefaults` the server would apply (today's date), so the dialog shows them.
 * 'last' (after the last row) is left to the server, which alone knows the last row.
 */
export function newRecordDefaults(descriptor: ResourceDescriptor, today: string = todayInZone()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(descriptor.schema.properties)) {
    const d = (prop as FieldSchema).default;
    if (d !== undefined && !(prop as FieldSchema).readOnly) out[name] = d;
  }
  for (const [name, rule] of Object.entries(descriptor.createDefaults ?? {})) {
    if (rule === 'today') out[name] = today;
  }
  return out;
}
