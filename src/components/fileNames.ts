// The name a stored file was uploaded with (docs/api.md, "GetFileNames"). A record's file field holds
// only the URL (`/files/video/2026/11/<uuid>.mp4`); the server keeps each upload's own name. Every
// name asked for in the same moment goes in one call, and react-query keeps the answers.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { LegacyDataProvider } from '../dataProvider/index';

type Api = Pick<LegacyDataProvider, 'call'>;

/** The server's limit of URLs per call. */
const BATCH = 100;

const queryKey = (url: string) => ['fileName', url] as const;

/** The URL's last path segment: the name of a file the server has none for (demo files, other sites). */
export function lastSegmentOf(url: string): string {
  const tail = url.split(/[?#]/)[0]?.split('/').pop() ?? '';
  try {
    return decodeURIComponent(tail);
  } catch {
    return tail;
  }
}

interface Waiting {
  resolve(name: string | null): void;
  reject(error: unknown): void;
}

let waiting = new Map<string, Waiting[]>();
let scheduled = false;

async function flush(api: Api): Promise<void> {
  scheduled = false;
  const batch = waiting;
  waiting = new Map();
  const urls = [...batch.keys()];
  for (let i = 0; i < urls.length; i += BATCH) {
    const slice = urls.slice(i, i + BATCH);
    try {
      const { data } = await api.call<{ Url: string; Name: string }[]>('Ajax', 'GetFileNames', { Urls: slice });
      const names = new Map((Array.isArray(data) ? data : []).map((d) => [d.Url, d.Name]));
      for (const url of slice) for (const w of batch.get(url) ?? []) w.resolve(names.get(url) ?? null);
    } catch (error) {
      for (const url of slice) for (const w of batch.get(url) ?? []) w.reject(error);
    }
  }
}

/** The uploaded name of one URL (null: none known), asked together with every other name asked now. */
function nameOf(api: Api, url: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    waiting.set(url, [...(waiting.get(url) ?? []), { resolve, reject }]);
    if (!scheduled) {
      scheduled = true;
      // After the current render: every input of a dialog has asked by then.
      setTimeout(() => void flush(api), 0);
    }
  });
}

/**
 * The name to show for a stored file's URL: the name it was uploaded with, or its last path segment
 * when the server has none; undefined while asking (never a flash of the storage key).
 */
export function useFileName(url: string): string | undefined {
  const api = useDataProvider<LegacyDataProvider>();
  const { data, isError } = useQuery({
    queryKey: queryKey(url),
    queryFn: () => nameOf(api, url),
    enabled: url !== '',
    // A key's name never changes.
    staleTime: Infinity,
    retry: false,
  });
  if (url === '') return undefined;
  if (isError) return lastSegmentOf(url);
  return data === undefined ? undefined : (data ?? lastSegmentOf(url));
}

/** Remembers the name of a file just uploaded, so that showing it needs no call. */
export function useRememberFileName(): (url: string, name: string) => void {
  const client = useQueryClient();
  return (url, name) => client.setQueryData(queryKey(url), name);
}
