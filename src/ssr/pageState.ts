// What a page rendered by the server carries for the browser's takeover (ssr/render.tsx writes it,
// main.tsx reads it): react-query's dehydrated answers and the store values the render read.
import type { DehydratedState } from '@tanstack/react-query';
import type { Store } from 'react-admin';
import { NO_SESSION, SESSION_META } from '../../schemas/page';
import type { CurrentMember } from '../../schemas/types';

/** The id of the page's JSON script element. */
export const STATE_ELEMENT_ID = 'page-state';

export interface PageState {
  /** The member the page was rendered for. */
  member: CurrentMember;
  queries: DehydratedState;
  /** Each store key the render read, with the value it read (null: nothing stored). */
  store: Record<string, unknown>;
  /** The parts loaded on demand that the page shows (components/lazyPart.ts): loaded before the takeover. */
  parts: string[];
}

/** `store`, recording what is read from it and what it held then. */
export function recordingStore(store: Store): { store: Store; reads: Map<string, unknown> } {
  const reads = new Map<string, unknown>();
  const getItem: Store['getItem'] = (key, defaultValue) => {
    reads.set(key, store.getItem(key) ?? null);
    return store.getItem(key, defaultValue);
  };
  return { store: { ...store, getItem }, reads };
}

/**
 * Whether this browser's store holds what the server's render read (a member who narrowed the
 * sidebar or chose another page size has it in localStorage). Where it differs, the page the
 * server rendered is not this browser's page: React would keep attributes it cannot reconcile.
 */
export function storeMatches(store: Store, reads: PageState['store']): boolean {
  return Object.entries(reads).every(([key, value]) => JSON.stringify(store.getItem(key) ?? null) === JSON.stringify(value));
}

/** The state of a page the server rendered; undefined on a page the browser renders itself. */
export function readPageState(): PageState | undefined {
  const element = document.getElementById(STATE_ELEMENT_ID);
  if (!element?.textContent) return undefined;
  try {
    return JSON.parse(element.textContent) as PageState;
  } catch {
    return undefined;
  }
}

/**
 * The session this page was sent for: the member a rendered page carries; null when the server
 * said there is none (the app then shows the login page without asking); undefined: ask.
 */
export function pageSession(page: PageState | undefined): CurrentMember | null | undefined {
  if (page) return page.member;
  return document.querySelector<HTMLMetaElement>(`meta[name="${SESSION_META}"]`)?.content === NO_SESSION ? null : undefined;
}
