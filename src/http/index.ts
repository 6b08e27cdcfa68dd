// A small fetch-based HTTP client shared by the dataProvider and the authProvider, and the one
// place where the legacy envelope `{ code, msg, data, total?, errors? }` of docs/api.md is decoded.
import { HttpError } from 'react-admin';

/** Shown when the server cannot be reached or answers something that is not the envelope. */
export const NETWORK_ERROR_MESSAGE = '请求失败，请稍后重试';

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

/**
 * Same call shape as react-admin's `fetchUtils.fetchJson`, so either can be injected.
 * Our `fetchJson` never rejects on an HTTP status: the envelope decoder below decides.
 */
export type HttpClient = (url: string, options?: RequestInit) => Promise<HttpResponse>;

export const fetchJson: HttpClient = async (url, options = {}) => {
  const response = await fetch(url, { credentials: 'same-origin', ...options });
  const body = await response.text();
  let json: unknown;
  try {
    json = body === '' ? undefined : JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, body, json };
};

/** The success envelope as the providers see it. */
export interface CallResult<T = unknown> {
  data: T;
  total?: number;
  /** The total is a lower bound: the server stopped counting there (a full-text search's "1000+"). */
  totalCapped?: boolean;
  msg: string;
}

/**
 * Form errors in the shape ra-core reads from `error.body.errors` (useCreateController /
 * useEditController return it to the form, whose setSubmissionErrors calls setError per key,
 * recursing into objects). `root.serverError` is what useNotifyIsFormInvalid shows instead of
 * the generic "invalid form" notice, so it carries the server's message.
 */
export interface FormErrors {
  [field: string]: string | { serverError: string };
}

/** `{ [field]: msg }` from the envelope's list. */
export type FieldErrors = Record<string, string>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns the envelope's `errors: [{ field, msg }]` into `{ [field]: msg }` (first message wins). */
export function toFieldErrors(errors: unknown): FieldErrors | undefined {
  if (!Array.isArray(errors)) return undefined;
  const out: FieldErrors = {};
  for (const e of errors) {
    if (!isObject(e) || typeof e.field !== 'string' || e.field === '') continue;
    if (out[e.field] === undefined) out[e.field] = typeof e.msg === 'string' ? e.msg : String(e.msg);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Builds the HttpError react-admin expects from a failed answer. The message is the server's
 * Chinese `msg`; `body` keeps the envelope with `errors` reshaped for the form fields.
 */
export function toHttpError(status: number, json: unknown): HttpError {
  const ok = status >= 200 && status < 300;
  if (!isObject(json) || typeof json.msg !== 'string' || json.msg === '') {
    return new HttpError(NETWORK_ERROR_MESSAGE, ok ? 500 : status, json);
  }
  // HTTP 2xx with a non-zero code: the envelope mirrors the status in `code`; anything else is a 500.
  const effective = ok ? (typeof json.code === 'number' && json.code >= 400 && json.code < 600 ? json.code : 500) : status;
  const { errors, ...rest } = json;
  const fieldErrors = toFieldErrors(errors);
  // Without field errors `errors` is left out, so react-admin notifies `message` as usual.
  const body = fieldErrors
    ? { ...rest, errors: { ...fieldErrors, root: { serverError: json.msg } } satisfies FormErrors }
    : rest;
  return new HttpError(json.msg, effective, body);
}

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/**
 * POSTs `params` as JSON to `url` and returns the decoded success envelope, or throws an
 * HttpError (server message, status, body) for a non-2xx answer or `code !== 0`.
 */
export async function postJson<T = unknown>(
  httpClient: HttpClient,
  url: string,
  params: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<CallResult<T>> {
  const options: RequestInit = {
    method: 'POST',
    credentials: 'same-origin',
    // A Headers instance (not a plain object) so that ra's fetchUtils.fetchJson also accepts it.
    headers: new Headers({ 'Content-Type': 'application/json', Accept: 'application/json' }),
    body: JSON.stringify(params),
  };
  if (signal) options.signal = signal;

  let response: HttpResponse;
  try {
    response = await httpClient(url, options);
  } catch (error) {
    if (isAbort(error)) throw error;
    // ra's fetchJson rejects on non-2xx with the parsed body: decode our envelope from it.
    if (typeof error === 'object' && error !== null) {
      const e = error as { status?: unknown; body?: unknown };
      if (typeof e.status === 'number' && e.status > 0) throw toHttpError(e.status, e.body);
    }
    throw new HttpError(NETWORK_ERROR_MESSAGE, 0, undefined);
  }

  const { status, json } = response;
  if (status < 200 || status >= 300 || !isObject(json) || json.code !== 0) {
    throw toHttpError(status, json);
  }
  const result: CallResult<T> = { data: json.data as T, msg: typeof json.msg === 'string' ? json.msg : '' };
  if (typeof json.total === 'number') result.total = json.total;
  if (json.totalCapped === true) result.totalCapped = true;
  return result;
}
