// The server's log as an operator reads it in a terminal: one short line per event, its time in the
// business time zone, warnings and errors always, a line per request only when asked (LOG=1).
// Fastify's logger (pino) still makes every entry; this stream only words it (Fastify's documented
// `logger.stream` option), so nothing in the routes knows how the log looks.
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { formatIn } from '../../schemas/businessTime';
import type { LogMode } from './config';

const PINO_LEVEL: Record<LogMode, string> = { errors: 'error', warnings: 'warn', requests: 'info' };
const LEVEL_LABEL: Record<number, string> = { 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino's own fields and Fastify's per-request bindings: the line says them otherwise or not at all. */
const NOT_SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'v', 'err']);
/** A value longer than this is cut: a header or URL an attacker makes long stays one short line. */
const MAX_VALUE = 200;

const cut = (text: string) => (text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text);

interface Entry {
  level?: number;
  time?: number;
  msg?: string;
  err?: { type?: string; message?: string; stack?: string };
  [field: string]: unknown;
}

/** One entry of pino (a JSON line) as the text the terminal shows; an error's stack on lines below it. */
export function formatEntry(json: string, timeZone: string): string {
  let entry: Entry;
  try {
    entry = JSON.parse(json) as Entry;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const parts = [formatIn(timeZone, new Date(entry.time ?? Date.now()).toISOString(), 'YYYY-MM-DD HH:mm:ss')];
  const label = LEVEL_LABEL[entry.level ?? 30];
  if (label) parts.push(label);
  if (entry.msg) parts.push(cut(entry.msg));
  for (const [field, value] of Object.entries(entry)) {
    if (NOT_SHOWN.has(field) || value === undefined) continue;
    parts.push(`${field}=${cut(typeof value === 'string' ? value : JSON.stringify(value))}`);
  }
  const err = entry.err;
  if (err) parts.push(`err=${cut(`${err.type ?? 'Error'}: ${err.message ?? ''}`)}`);
  // The stack's frames, indented, without its first line (the message, said above).
  const frames = err?.stack?.split('\n').slice(1).map((frame) => `    ${frame.trim()}`) ?? [];
  return [parts.join(' '), ...frames].join('\n') + '\n';
}

/** Fastify's logger options for a mode: pino at the mode's level, worded by `formatEntry`. */
export function loggerOptions(mode: LogMode, timeZone: string): FastifyServerOptions['logger'] {
  return {
    level: PINO_LEVEL[mode],
    // One write per entry: with two workers on one terminal the primary relays whole lines (cluster.ts).
    stream: { write: (json: string) => process.stdout.write(formatEntry(json, timeZone)) },
  };
}

/**
 * Fastify's request lines, through its documented LogController: instead of an "incoming request"
 * and a "request completed" entry, one short line when the answer is sent (at info, so shown with
 * LOG=1 only), or an error entry when the answer failed (always shown).
 */
export class ShortRequestLog extends LogController {
  override incomingRequest(): void {}

  // A 404 has its line as every answer does.
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = `${request.method} ${cut(request.url)} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.info(line);
  }
}
