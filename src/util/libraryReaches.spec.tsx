// @vitest-environment node
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Suspense, use } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AdminContext, Layout, memoryStore } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { askedQueries, declareServerGlobals, trackedPromise } from './libraryReaches';

function Asks({ name, enabled }: { name: string; enabled: boolean }) {
  const { data } = useQuery({ queryKey: ['asked', name], queryFn: () => Promise.resolve(`答复 ${name}`), enabled });
  return <span>{data ?? '…'}</span>;
}

describe('askedQueries (react-query keeps the options a component built its query with)', () => {
  it('finds the enabled queries a server render asked for, and answers them with their own queryFn', async () => {
    const queryClient = new QueryClient();
    const page = (
      <QueryClientProvider client={queryClient}>
        <Asks name="甲" enabled />
        <Asks name="乙" enabled={false} />
      </QueryClientProvider>
    );
    expect(renderToString(page)).not.toContain('答复');
    const asked = askedQueries(queryClient);
    expect(asked.map((q) => q.queryKey)).toEqual([['asked', '甲']]);
    await Promise.all(asked.map((q) => queryClient.prefetchQuery(q)));
    expect(askedQueries(queryClient)).toEqual([]);
    expect(renderToString(page)).toContain('答复 甲');
  });
});

function renderLayout(): string {
  const router = createMemoryRouter([
    {
      path: '*',
      element: (
        <AdminContext store={memoryStore({ locale: 'en' })}>
          <Layout>
            <p>内容</p>
          </Layout>
        </AdminContext>
      ),
    },
  ]);
  return renderToString(<RouterProvider router={router} />);
}

describe('declareServerGlobals (react-admin reads `document` while its Layout renders)', () => {
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'document');
  });

  it("is still needed: react-admin's Layout reads `document` while rendering on the server", () => {
    expect('document' in globalThis).toBe(false);
    expect(renderLayout).toThrow(/document is not defined/);
  });

  it("lets react-admin's Layout render on the server, with typeof document still 'undefined'", () => {
    declareServerGlobals();
    expect(typeof document).toBe('undefined');
    expect(renderLayout()).toContain('内容');
  });
});

function Reads({ promise }: { promise: Promise<string> }) {
  return <span>{use(promise)}</span>;
}

describe("trackedPromise (React's use() reads a promise's status and value)", () => {
  it('lets a component render a settled promise at once, without its Suspense fallback', async () => {
    const tracked = trackedPromise(Promise.resolve('已加载'));
    await tracked;
    expect(tracked.status).toBe('fulfilled');
    // renderToString does not wait: a promise React could not read at once would show the fallback.
    const html = renderToString(
      <Suspense fallback={<span>加载中</span>}>
        <Reads promise={tracked} />
      </Suspense>,
    );
    expect(html).toContain('已加载');
    expect(html).not.toContain('加载中');
  });

  it('is needed: a settled promise without its status shows the fallback first', async () => {
    const plain = Promise.resolve('已加载');
    await plain;
    const html = renderToString(
      <Suspense fallback={<span>加载中</span>}>
        <Reads promise={plain} />
      </Suspense>,
    );
    expect(html).toContain('加载中');
  });
});
