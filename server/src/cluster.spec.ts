import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { relayWholeLines } from './cluster';

describe('relayWholeLines', () => {
  it('passes two writers on in whole lines, however their output is cut', async () => {
    const terminal = new PassThrough();
    const written: string[] = [];
    terminal.on('data', (chunk: Buffer) => written.push(chunk.toString()));
    const first = new PassThrough();
    const second = new PassThrough();
    relayWholeLines(first, terminal);
    relayWholeLines(second, terminal);
    first.write('first line one\nfirst li');
    second.write('second li');
    first.write('ne two\n');
    second.write('ne one\nsecond unfinished');
    first.end();
    second.end();
    await new Promise((resolve) => setImmediate(resolve));
    const lines = written.join('').split('\n').filter(Boolean);
    expect(lines.sort()).toEqual(['first line one', 'first line two', 'second line one', 'second unfinished']);
    // Every write carried whole lines only.
    for (const piece of written) expect(piece.endsWith('\n')).toBe(true);
  });
});
