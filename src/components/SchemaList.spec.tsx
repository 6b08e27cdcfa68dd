// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { videoTypeResource } from '../../schemas/videoType';
import { fakeMember, renderWithAdmin } from '../test/renderWithAdmin';
import { SchemaList } from './SchemaList';

afterEach(cleanup);

const row = (n: number) => ({ id: n, Id: n, VdtCode: `code-${n}`, VdtName: `分类${n}`, VdtSort: n });

describe('the generated list', () => {
  it('does not draw the rows shown again on a click on 下一页 while the next page is on its way', async () => {
    let answerPage2: (value: { data: ReturnType<typeof row>[]; total: number }) => void = () => undefined;
    const getList = vi.fn(async (_resource: string, params: { pagination: { page: number } }) =>
      params.pagination.page === 1
        ? { data: Array.from({ length: 15 }, (_, i) => row(i + 1)), total: 20 }
        : new Promise<{ data: ReturnType<typeof row>[]; total: number }>((resolve) => (answerPage2 = resolve)),
    );
    // Called once per row each time the rows are drawn.
    const rowActions = vi.fn(() => null);
    renderWithAdmin(<SchemaList descriptor={videoTypeResource} rowActions={rowActions} />, {
      dataProvider: { getList },
      member: fakeMember({ IsAdmin: 1 }),
    });
    expect(await screen.findByText('分类15')).toBeTruthy();
    const drawn = rowActions.mock.calls.length;
    expect(drawn).toBeGreaterThanOrEqual(15);

    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    await vi.waitFor(() => expect(getList).toHaveBeenCalledWith('videoType', expect.objectContaining({ pagination: { page: 2, perPage: 15 } })));
    expect(rowActions.mock.calls.length).toBe(drawn);

    await act(async () => answerPage2({ data: Array.from({ length: 5 }, (_, i) => row(i + 16)), total: 20 }));
    expect(await screen.findByText('分类20')).toBeTruthy();
    expect(rowActions.mock.calls.length).toBeGreaterThanOrEqual(drawn + 5);
  });
});
