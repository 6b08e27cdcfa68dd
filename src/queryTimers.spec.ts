import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, notifyManager } from '@tanstack/react-query';
import { gatherQueryTimers, sharedTimerScheduler, slottedTimeouts, SLOT_MS } from './queryTimers';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-01T00:00:00.300Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('slottedTimeouts', () => {
  it('gives long timers due in the same second one browser timer, and runs each once, in order', () => {
    const timers = slottedTimeouts();
    const ran: number[] = [];
    for (let i = 0; i < 50; i++) timers.setTimeout(() => ran.push(i), 300_000 + i);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(300_000 + 49 + SLOT_MS);
    expect(ran).toEqual([...Array(50).keys()]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never runs a timer early, and at most a slot late', () => {
    const timers = slottedTimeouts();
    const callback = vi.fn();
    timers.setTimeout(callback, 1500);
    vi.advanceTimersByTime(1499);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(SLOT_MS + 1);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('cancels one timer of a slot, and the slot with its last one', () => {
    const timers = slottedTimeouts();
    const kept = vi.fn();
    const cancelled = vi.fn();
    timers.setTimeout(kept, 5000);
    const id = timers.setTimeout(cancelled, 5000);
    timers.clearTimeout(id);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(5000 + SLOT_MS);
    expect(kept).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();

    const alone = timers.setTimeout(cancelled, 9000);
    timers.clearTimeout(alone);
    expect(vi.getTimerCount()).toBe(0);
    timers.clearTimeout(alone); // twice, or after it ran: nothing happens
    timers.clearTimeout(undefined);
  });

  it('lets a callback cancel another of its slot, which then does not run', () => {
    const timers = slottedTimeouts();
    const cancelled = vi.fn();
    let other = 0;
    timers.setTimeout(() => timers.clearTimeout(other), 4000);
    other = timers.setTimeout(cancelled, 4000);
    const after = vi.fn();
    timers.setTimeout(after, 4000);
    vi.advanceTimersByTime(4000 + SLOT_MS);
    expect(cancelled).not.toHaveBeenCalled();
    expect(after).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves short timers to the browser, exact and cancellable', () => {
    const timers = slottedTimeouts();
    const first = vi.fn();
    const second = vi.fn();
    timers.setTimeout(first, 300);
    const id = timers.setTimeout(second, 300);
    expect(vi.getTimerCount()).toBe(2);
    timers.clearTimeout(id);
    vi.advanceTimersByTime(300);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).not.toHaveBeenCalled();
  });
});

describe('sharedTimerScheduler', () => {
  it('runs what is scheduled before its timer in that one timer, in order; later ones get the next', () => {
    const schedule = sharedTimerScheduler();
    const ran: string[] = [];
    schedule(() => ran.push('a'));
    schedule(() => {
      ran.push('b');
      schedule(() => ran.push('d'));
    });
    schedule(() => ran.push('c'));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersToNextTimer();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersToNextTimer();
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('gatherQueryTimers', () => {
  /**
   * A query cache as in the browser: entries dropped 5 minutes after their last watcher, and a
   * watcher of the whole cache told in batches, as react-query's useIsFetching (react-admin's
   * loading indicator) is.
   */
  const browserLikeClient = () => {
    const client = new QueryClient({ defaultOptions: { queries: { gcTime: 5 * 60_000 } } });
    const seen = vi.fn();
    client.getQueryCache().subscribe(notifyManager.batchCalls(seen));
    return { client, seen };
  };
  /** What react-admin's useGetList does with a page of 15 rows: an entry per record. */
  const copyRecords = (client: QueryClient) => {
    for (let id = 1; id <= 15; id++) client.setQueryData(['video', 'getOne', { id: String(id) }], (old: unknown) => old ?? { id });
  };

  it('a page of records copied into the cache sets two timers, not one or two per record', () => {
    copyRecords(browserLikeClient().client);
    expect(vi.getTimerCount()).toBeGreaterThanOrEqual(45);
    vi.clearAllTimers();

    gatherQueryTimers();
    const { client, seen } = browserLikeClient();
    copyRecords(client);
    expect(vi.getTimerCount()).toBe(2); // the notifications, and the entries' clean-up
    vi.advanceTimersToNextTimer();
    expect(seen).toHaveBeenCalled(); // the cache's watchers were told
    expect(client.getQueryData(['video', 'getOne', { id: '15' }])).toEqual({ id: 15 });

    // Unwatched entries are still dropped after their gcTime, within a slot.
    vi.advanceTimersByTime(5 * 60_000 + SLOT_MS);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });
});
