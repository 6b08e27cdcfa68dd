// The module vite.config.ts builds from schemas/validationCode.ts.
declare module 'virtual:write-validators' {
  import type { AjvError } from '../../schemas/validation';

  /** Ajv's standalone validate function: mutates the body as Ajv does (coercion, removeAdditional). */
  interface WriteValidator {
    (body: unknown): boolean;
    errors?: AjvError[] | null;
  }

  /** A validator per write call (`Ajax/AddVideoType`): its body schema, compiled as the server does. */
  export const WRITE_VALIDATORS: Readonly<Record<string, WriteValidator | undefined>>;
}
