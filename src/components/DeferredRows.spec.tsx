// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { flushSync } from 'react-dom';
import { ListContextProvider, useListContext, type ListControllerResult } from 'react-admin';
import { afterEach, describe, expect, it } from 'vitest';
import { DeferredRows } from './DeferredRows';

afterEach(cleanup);

function Rows() {
  const { data } = useListContext<{ id: number; name: string }>();
  return <ul>{data?.map((row) => <li key={row.id}>{row.name}</li>)}</ul>;
}

const list = (names: string[]) => ({ data: names.map((name, id) => ({ id, name })), isPending: false }) as unknown as ListControllerResult;
const page = (names: string[]) => (
  <ListContextProvider value={list(names)}>
    <DeferredRows>
      <Rows />
    </DeferredRows>
  </ListContextProvider>
);

describe('DeferredRows', () => {
  it('shows new rows in a later render than the synchronous one that brings them', async () => {
    const { rerender } = render(page(['甲']));
    let inTheSameRender = '';
    await act(async () => {
      flushSync(() => rerender(page(['乙', '丙'])));
      inTheSameRender = screen.getByRole('list').textContent ?? '';
    });
    expect(inTheSameRender).toBe('甲');
    expect(screen.getByRole('list').textContent).toBe('乙丙');
  });
});
