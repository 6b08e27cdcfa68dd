// @vitest-environment jsdom
import { Component, Suspense, type ReactNode } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPart, preloadParts, renderedParts } from './lazyPart';

afterEach(cleanup);

/** Parts are named once each. */
let parts = 0;

function Hello({ name }: { name: string }) {
  return <p>你好 {name}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p>加载失败</p> : this.props.children;
  }
}

const show = (Part: React.ComponentType<{ name: string }>) =>
  render(
    <Boundary>
      <Suspense fallback={<p>拼命加载中</p>}>
        <Part name="张三" />
      </Suspense>
    </Boundary>,
  );

describe('lazyPart', () => {
  it('renders code that was preloaded at once, without showing the fallback', async () => {
    const load = vi.fn(() => Promise.resolve(Hello));
    const Part = lazyPart(`spec part ${++parts}`, load);
    await Part.preload();
    show(Part);
    // No act() flush needed: the first commit already holds the content.
    expect(screen.getByText('你好 张三')).toBeTruthy();
    expect(screen.queryByText('拼命加载中')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows the fallback until code that was not there arrives, and loads it once', async () => {
    let arrive: (c: typeof Hello) => void = () => undefined;
    const load = vi.fn(() => new Promise<typeof Hello>((resolve) => (arrive = resolve)));
    const Part = lazyPart(`spec part ${++parts}`, load);
    // Awaited act: React retries a suspended render through act's queue in tests.
    await act(async () => show(Part));
    expect(screen.getByText('拼命加载中')).toBeTruthy();
    await act(async () => arrive(Hello));
    expect(await screen.findByText('你好 张三')).toBeTruthy();
    void Part.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('lets a failed download reach the error boundary once, and preload() tries it again', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('network')).mockResolvedValue(Hello);
    const Part = lazyPart<{ name: string }>('spec part failing', load);
    // React reports the error the boundary catches; the boundary's text is what is checked.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await act(async () => show(Part));
    expect(await screen.findByText('加载失败')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
    await Part.preload();
    cleanup();
    show(Part);
    expect(screen.getByText('你好 张三')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
    quiet.mockRestore();
  });

  it("names the parts a render showed, once each, for the server's page", async () => {
    const shown = lazyPart('spec part shown', () => Promise.resolve(Hello));
    lazyPart('spec part not shown', () => Promise.resolve(Hello));
    await shown.preload();
    renderedParts();
    show(shown);
    expect(renderedParts()).toEqual(['spec part shown']);
    expect(renderedParts()).toEqual([]);
  });

  it("preloads the parts a page names, those declared in another part's code too, and leaves unknown names", async () => {
    let inner: ReturnType<typeof vi.fn> | undefined;
    const outer = vi.fn(() => {
      // The inner part is declared when the outer part's code runs, as a chunk's module would.
      inner = vi.fn(() => Promise.resolve(Hello));
      lazyPart('spec part inner', inner as () => Promise<typeof Hello>);
      return Promise.resolve(Hello);
    });
    lazyPart('spec part outer', outer);
    await preloadParts(['spec part outer', 'spec part inner', 'spec part nowhere']);
    expect(outer).toHaveBeenCalledTimes(1);
    expect(inner).toHaveBeenCalledTimes(1);
  });
});
