// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AdminContext, Layout, memoryStore } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { declareServerGlobals } from './serverGlobals';

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

describe('the globals the server render declares', () => {
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'document');
  });

  it("are still needed: react-admin's Layout reads `document` while rendering on the server", () => {
    expect('document' in globalThis).toBe(false);
    expect(renderLayout).toThrow(/document is not defined/);
  });

  it("let react-admin's Layout render on the server, with typeof document still 'undefined'", () => {
    declareServerGlobals();
    expect(typeof document).toBe('undefined');
    expect(renderLayout()).toContain('内容');
  });
});
