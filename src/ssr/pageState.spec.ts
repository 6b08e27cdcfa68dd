// @vitest-environment jsdom
import fs from 'node:fs';
import { QueryClient, dehydrate } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { PAGE_DATA_FRESH_MS, PAGE_STATE_ID, hydratePageState, pageStateScript, readPageState } from './pageState';

function pageWith(script: string): Document {
  const doc = document.implementation.createHTMLDocument('page');
  doc.body.innerHTML = `<div id="root"></div>${script}`;
  return doc;
}

describe('page state', () => {
  it('cannot be closed early by a value: "<" is escaped, and the value reads back as it was', () => {
    const server = new QueryClient();
    const hostile = '</script><script>alert(1)</script><!--';
    server.setQueryData(['videoType', 'getList'], { data: [{ VdtName: hostile }], total: 1 });
    const script = pageStateScript(dehydrate(server));
    expect(script.startsWith(`<script id="${PAGE_STATE_ID}" type="application/json">`)).toBe(true);
    // One closing tag only: the element's own.
    expect(script.match(/<\/script/gi)).toHaveLength(1);
    expect(script).not.toContain('<!--');

    const state = readPageState(pageWith(script));
    const client = new QueryClient();
    hydratePageState(client, state!);
    expect(client.getQueryData(['videoType', 'getList'])).toEqual({ data: [{ VdtName: hostile }], total: 1 });
  });

  it('is absent from a page the server did not render, and a broken one is ignored', () => {
    expect(readPageState(pageWith(''))).toBeUndefined();
    expect(readPageState(pageWith(`<script id="${PAGE_STATE_ID}" type="application/json">{broken</script>`))).toBeUndefined();
  });

  it("keeps the page's answers fresh for a while, and nothing else", () => {
    const server = new QueryClient();
    server.setQueryData(['fromPage'], 1);
    const client = new QueryClient();
    hydratePageState(client, dehydrate(server));
    client.setQueryData(['fetchedLater'], 2);
    const staleTime = client.getDefaultOptions().queries?.staleTime;
    expect(typeof staleTime).toBe('function');
    const cache = client.getQueryCache();
    const fresh = (key: string) => (staleTime as (q: unknown) => number)(cache.find({ queryKey: [key] }));
    expect(fresh('fromPage')).toBe(PAGE_DATA_FRESH_MS);
    expect(fresh('fetchedLater')).toBe(0);
    // Answered again (a change, a refetch): the default applies.
    client.setQueryData(['fromPage'], 3, { updatedAt: Date.now() + 1 });
    expect(fresh('fromPage')).toBe(0);
  });

  it('is looked for by the entry under the same id (main.tsx writes it out: it imports nothing heavy)', () => {
    const entry = fs.readFileSync('src/main.tsx', 'utf8');
    expect(entry).toContain(`document.getElementById('${PAGE_STATE_ID}')`);
  });
});
