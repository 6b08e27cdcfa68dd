// A JSON call on a connection of its own, which `drop` closes as a client going away does (fetch's
// abort leaves the pool opening spare connections, which then hold the server's close for a
// minute). Used by the rich-text queue's test and its bench.
import http from 'node:http';

export interface DroppableCall {
  /** The answer's status, or undefined once dropped. */
  status: Promise<number | undefined>;
  drop(): void;
}

export function droppableCall(url: string, cookie: string, body: unknown): DroppableCall {
  const data = JSON.stringify(body);
  const req = http.request(url, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), cookie },
  });
  const status = new Promise<number | undefined>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(undefined));
    req.on('close', () => resolve(undefined));
  });
  req.end(data);
  return { status, drop: () => req.destroy() };
}
