// react-query's timers, gathered. Every list answer is also copied into a cache entry per record
// (react-admin's useGetList, so that an edit dialog opens with its record at once), and each copy
// set a timer to drop the entry later and others to tell its watchers: some fifty timers in the
// task that shows or takes over a page of rows, paid as a timer each by the browser (and counted
// per timer by a traced load, e.g. Lighthouse's). react-query lets an app supply its timers for
// this (timeoutManager, notifyManager); these keep its behaviour and set far fewer of them.
import { notifyManager, timeoutManager, type TimeoutProvider } from '@tanstack/react-query';

/** Timers due within this many ms of each other share one browser timer. */
export const SLOT_MS = 1000;

/**
 * A timer provider whose long timers (a second or more: the entries' clean-up, 5 minutes by
 * default) share one browser timer per second slot; a timer may run up to a second late, which
 * such a clean-up does not mind. Shorter ones (retries, refetch intervals) are the browser's own.
 */
export function slottedTimeouts(): TimeoutProvider<number> {
  const slots = new Map<number, { timer: ReturnType<typeof setTimeout>; callbacks: Map<number, () => void> }>();
  const slotOf = new Map<number, number>();
  let lastId = 0;

  // A callback may cancel another of its slot (dropping one entry can reschedule another's
  // clean-up): the slot stays findable while it runs, and a cancelled callback is not called.
  const runSlot = (due: number) => {
    const slot = slots.get(due);
    for (const [id, callback] of slot?.callbacks ?? []) {
      slot!.callbacks.delete(id);
      slotOf.delete(id);
      callback();
    }
    slots.delete(due);
  };

  return {
    setTimeout(callback, delay) {
      if (delay < SLOT_MS) return setTimeout(callback, delay) as unknown as number;
      const due = Math.ceil((Date.now() + delay) / SLOT_MS) * SLOT_MS;
      let slot = slots.get(due);
      if (!slot) {
        slot = { timer: setTimeout(() => runSlot(due), due - Date.now()), callbacks: new Map() };
        slots.set(due, slot);
      }
      // Negative ids: never one the browser gave (those are positive), so clearTimeout knows whose it is.
      const id = --lastId;
      slot.callbacks.set(id, callback);
      slotOf.set(id, due);
      return id;
    },
    clearTimeout(id) {
      if (id === undefined) return;
      const due = slotOf.get(id);
      if (due === undefined) {
        if (id > 0) clearTimeout(id);
        return;
      }
      slotOf.delete(id);
      const slot = slots.get(due);
      if (!slot) return;
      slot.callbacks.delete(id);
      if (slot.callbacks.size === 0) {
        clearTimeout(slot.timer);
        slots.delete(due);
      }
    },
    setInterval: (callback, delay) => setInterval(callback, delay) as unknown as number,
    clearInterval: (id) => clearInterval(id),
  };
}

/**
 * A scheduler for react-query's notifications: what is scheduled before the timer fires runs in
 * that one timer, in order (react-query's own sets a timer per batch of notifications).
 */
export function sharedTimerScheduler(): (callback: () => void) => void {
  let queue: (() => void)[] | undefined;
  return (callback) => {
    if (queue) {
      queue.push(callback);
      return;
    }
    const run = (queue = [callback]);
    setTimeout(() => {
      queue = undefined;
      for (const next of run) next();
    }, 0);
  };
}

/** In the browser, before the query cache is made. */
export function gatherQueryTimers(): void {
  timeoutManager.setTimeoutProvider(slottedTimeouts());
  notifyManager.setScheduler(sharedTimerScheduler());
}
