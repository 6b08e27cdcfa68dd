// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeMember, renderWithAdmin } from '../../test/renderWithAdmin';
import { CommentList } from './CommentList';
import type { CommentRecord } from './detailsSequence';

const comments = [
  { id: 3, Id: 3, VdCode: 'v', VmDes: '<p>最新一条<script>alert(1)</script></p>', VmTime: '2026-11-20T00:05:00.000Z', AuCode: 'someone', AuName: '', OrganizationName: '审计部' },
  { id: 2, Id: 2, VdCode: 'v', VmDes: '<p>我的评论</p>', VmTime: '2026-11-19T01:30:00.000Z', AuCode: 'staff-1', AuName: '测试员工', OrganizationName: '造价一部' },
  { id: 1, Id: 1, VdCode: 'v', VmDes: '<p>最早一条</p>', VmTime: '2026-11-18T02:00:00.000Z', AuCode: 'someone', AuName: '张三', OrganizationName: '审计部' },
] as CommentRecord[];

afterEach(cleanup);

function itemOf(text: string): HTMLElement {
  const item = screen.getByText(text).closest('[data-testid="comment"]');
  if (!item) throw new Error(`no comment with ${text}`);
  return item as HTMLElement;
}

describe('the comment list of the details page', () => {
  it('shows floors (newest highest), organisation, author (管理员 when empty), time and sanitised text', async () => {
    renderWithAdmin(<CommentList comments={comments} onDeleted={() => undefined} />, {
      member: fakeMember({ Modules: { videoView: '2' } }),
    });
    const newest = itemOf('最新一条');
    expect(within(newest).getByText('3楼')).toBeTruthy();
    expect(within(newest).getByText('管理员')).toBeTruthy();
    expect(within(newest).getByText('审计部')).toBeTruthy();
    expect(within(newest).getByText('2026-11-20 08:05')).toBeTruthy();
    expect(newest.querySelector('script')).toBeNull();
    expect(within(itemOf('最早一条')).getByText('1楼')).toBeTruthy();
  });

  it('offers 删除 on the member’s own comments only', async () => {
    renderWithAdmin(<CommentList comments={comments} onDeleted={() => undefined} />, {
      member: fakeMember({ Modules: { videoView: '2' } }),
    });
    expect(await within(itemOf('我的评论')).findByRole('button', { name: '删除' })).toBeTruthy();
    expect(within(itemOf('最新一条')).queryByRole('button', { name: '删除' })).toBeNull();
    expect(within(itemOf('最早一条')).queryByRole('button', { name: '删除' })).toBeNull();
  });

  it('offers 删除 on every comment to an administrator', async () => {
    renderWithAdmin(<CommentList comments={comments} onDeleted={() => undefined} />, { member: fakeMember({ IsAdmin: 1 }) });
    expect(await screen.findAllByRole('button', { name: '删除' })).toHaveLength(3);
  });
});
