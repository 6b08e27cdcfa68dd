// Requests sent before the app's libraries have evaluated, and handed to the first identical call.
//
// The app's code (react-admin, MUI: ~200 ms of main thread to evaluate) would ask for the session
// only once evaluated. The small entry (main.tsx) sends the request before it loads that code; the
// HTTP client then takes its answer instead of asking again.
// This file must stay free of imports: anything it imported would evaluate before the request left.

interface EarlyRequest {
  response: Promise<Response>;
  sentAt: number;
}

/** An early answer older than this is not used: the app asks the server again. */
const EARLY_ANSWER_LIFETIME_MS = 10_000;

const early = new Map<string, EarlyRequest>();

const keyOf = (url: string, body: string) => `${url}\n${body}`;

/** The JSON POST the HTTP client would send for `url` with `body` (see postJson). */
export function sendEarly(url: string, body: string): void {
  const response = fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body,
  });
  // Its failure is the caller's to see when it takes the answer; until then it is not unhandled.
  response.catch(() => undefined);
  early.set(keyOf(url, body), { response, sentAt: performance.now() });
}

/** The early answer to exactly this call, once; undefined when there is none or it is too old. */
export function takeEarly(url: string, options: RequestInit): Promise<Response> | undefined {
  if (early.size === 0 || options.method !== 'POST' || typeof options.body !== 'string') return undefined;
  const key = keyOf(url, options.body);
  const hit = early.get(key);
  if (!hit) return undefined;
  early.delete(key);
  return performance.now() - hit.sentAt <= EARLY_ANSWER_LIFETIME_MS ? hit.response : undefined;
}
