// The add/edit dialog's checks are the server's: the body the dialog would send goes through the
// call's own schema (schemas/validation.ts writeBodySchema), compiled ahead of time with the
// server's Ajv options (schemas/validationCode.ts), after the same trimming, and its errors say
// what the server would say (fieldErrors). Loaded with the dialogs only, never with a first screen.
import { WRITE_VALIDATORS } from 'virtual:write-validators';
import type { ResourceDescriptor } from '../../schemas/descriptor';
import {
  CALL_BODIES,
  fieldErrors,
  trimFields,
  trimmedFields,
  writeBodySchema,
  writeCallKey,
  type FieldError,
  type WriteKind,
} from '../../schemas/validation';

export type { FieldError, WriteKind };

/** A react-admin form-level `validate` result: a message by field. */
export type FormErrors = Record<string, string>;

type Body = Record<string, unknown>;

interface CallCheck {
  validate: NonNullable<(typeof WRITE_VALIDATORS)[string]>;
  trimmed: readonly string[];
}

/** Per call, once: its validator and the fields trimmed before it runs. */
const checks = new Map<string, CallCheck>();

function checkOf(key: string, bodySchema: () => object): CallCheck {
  let check = checks.get(key);
  if (!check) {
    const validate = WRITE_VALIDATORS[key];
    if (!validate) throw new Error(`no validator for ${key}: not a write call of schemas/`);
    check = { validate, trimmed: trimmedFields(bodySchema()) };
    checks.set(key, check);
  }
  return check;
}

function errorsOf(check: CallCheck, body: unknown): FieldError[] {
  // What the server receives: the body as JSON (undefined dropped, a Date as its text), its plain
  // text trimmed. A copy: Ajv coerces and drops fields in place.
  const sent: unknown = JSON.parse(JSON.stringify(body ?? {}));
  if (sent && typeof sent === 'object' && !Array.isArray(sent)) trimFields(sent as Body, check.trimmed);
  return check.validate(sent) ? [] : fieldErrors(check.validate.errors ?? []);
}

/** The field errors the server gives for this body sent to a descriptor's add or update call. */
export function bodyErrors(descriptor: ResourceDescriptor, kind: WriteKind, body: Body): FieldError[] {
  const key = writeCallKey(descriptor, kind);
  return key === undefined ? [] : errorsOf(checkOf(key, () => writeBodySchema(descriptor, kind)), body);
}

/** The field errors the server gives for this body sent to a call of CALL_BODIES (`Ajax/UpdateOwnPassword`). */
export function callBodyErrors(key: string, body: Body): FieldError[] {
  const schema = CALL_BODIES[key];
  if (!schema) throw new Error(`${key} is not a call of CALL_BODIES`);
  return errorsOf(checkOf(key, () => schema), body);
}

/** Field errors as react-admin's form errors. */
export function toFormErrors(errors: readonly FieldError[]): FormErrors {
  return Object.fromEntries(errors.map(({ field, msg }) => [field, msg]));
}

/**
 * A react-admin form-level `validate` (`<Form validate>`) checking a descriptor's add (`create`)
 * or update call: `toBody` turns the form's values into the body the dialog sends (its transform;
 * an update's `Id`). Fields the body schema does not know (react-admin's `id`, server-owned ones)
 * are dropped, as the server drops them.
 */
export function formValidator(
  descriptor: ResourceDescriptor,
  kind: WriteKind,
  toBody: (values: Body) => Body = (values) => values,
): (values: Body) => FormErrors {
  return (values) => toFormErrors(bodyErrors(descriptor, kind, toBody(values)));
}
