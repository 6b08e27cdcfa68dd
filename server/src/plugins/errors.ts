// One error handler for the whole API: every failure is the envelope of docs/api.md with a Chinese
// message; 5xx details are logged, never sent.
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, constraintViolation, MSG_CONCURRENT_CHANGE } from '../errors';
import { databaseFault } from '../http/faults';
import { fieldErrors } from '../../../schemas/validation';

const STATUS_MESSAGES: Record<number, string> = {
  400: '请求格式不正确',
  401: '请先登录',
  403: '无权限执行此操作',
  404: '请求的接口不存在',
  405: '不支持的请求方法',
  406: '无法提供所请求的格式',
  408: '请求超时',
  413: '请求内容过大',
  414: '请求地址过长',
  415: '不支持的请求格式，请使用JSON',
  429: '请求过于频繁，请稍后再试',
  431: '请求头或地址过长',
};

const envelope = (status: number) => ({ code: status, msg: STATUS_MESSAGES[status] ?? '请求无法处理' });

/**
 * Fastify's `frameworkErrors`: refusals made before any route runs (an undecodable URL, an
 * over-long path parameter). Fastify's own answer is English and echoes the URL.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply.status(status).send(envelope(status));
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (headers or URL over 16 KiB,
 * malformed request line). Same behaviour as Fastify's default, with the envelope as body.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(envelope(status));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * Longest address answered, in bytes. Node refuses a request head over 16 KiB itself (431); an
 * address just under that could come back in a redirect's Location (Swagger UI's static pages echo
 * their query) and make an answer whose headers a client's own 16 KiB limit cannot read. The
 * longest address the screens send (a search of 1,000 Chinese characters) is about 9 KiB.
 */
export const MAX_URL_BYTES = 12 * 1024;

export default fp(async (app) => {
  // The checks run for every request are callback hooks, not async ones: no promise per request.
  app.addHook('onRequest', function refuseLongUrl(request, reply, done) {
    if (request.url.length > MAX_URL_BYTES) reply.status(414).send(envelope(414));
    else done();
  });
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send({ code: error.status, msg: error.message, errors: error.errors });
    }
    if (error.validation) {
      const errors = fieldErrors(error.validation as never);
      const first = errors[0];
      const msg = first ? `${first.field === 'body' ? '请求' : first.field}：${first.msg}` : STATUS_MESSAGES[400];
      return reply.status(400).send({ code: 400, msg, errors });
    }
    // The database down or restarting: a 503 to retry, never a crash nor a bare 500.
    const fault = databaseFault(error);
    if (fault) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(fault.status).send({ code: fault.status, msg: fault.message });
    }
    // A race lost to a concurrent write (the checks passed, the constraint did not): 409, not 500.
    if (constraintViolation(error)) return reply.status(409).send({ code: 409, msg: MSG_CONCURRENT_CHANGE });
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ code: 500, msg: '服务器内部错误，请稍后重试' });
    }
    return reply.status(status).send({ code: status, msg: STATUS_MESSAGES[status] ?? '请求无法处理' });
  });
});
