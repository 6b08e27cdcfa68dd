import { describe, expect, it } from 'vitest';
import { defineResource } from '../../../schemas/descriptor';
import { memberResource } from '../../../schemas/member';
import { videoResource } from '../../../schemas/video';
import { videoCommentResource } from '../../../schemas/videoComment';
import { diffChanges, MAX_TEXT, recordName, snapshotChanges, summarise } from './log';
// The member calls name members their own way in the log (with the login).
import '../routes/members';

// A resource whose schema (wrongly) offers a secret as an ordinary field: it is still never kept.
const leaky = defineResource({
  ...videoResource,
  resource: 'leaky',
  schema: {
    type: 'object',
    properties: {
      Id: { type: 'integer', readOnly: true },
      Name: { type: 'string' },
      ApiToken: { type: 'string' },
      PasswordHash: { type: 'string' },
    },
  },
});

describe('what the audit log keeps of a record', () => {
  it('never a secret, even one the schema does not mark', () => {
    const row = { Id: 1, Name: 'n', ApiToken: 't0k3n', PasswordHash: 'scrypt$1' };
    expect(snapshotChanges(leaky, row, 'after')).toEqual([{ field: 'Name', after: 'n' }]);
    expect(diffChanges(leaky, row, { ...row, ApiToken: 'other', PasswordHash: 'x' })).toEqual([]);
    expect(snapshotChanges(memberResource, { UserName: 'u', AuName: 'a', Password: 'secret-1' }, 'after')).toEqual([
      { field: 'UserName', after: 'u' },
      { field: 'AuName', after: 'a' },
    ]);
  });

  it('leaves out the server’s own fields and empty ones on an addition', () => {
    const row = { Id: 3, VdCode: 'c', VdName: '视频', VdPer: '', VdNum: 9, VdEnclosure: '[]', IsTop: 0, UpdateTime: 'x' };
    expect(snapshotChanges(videoResource, row, 'before')).toEqual([
      { field: 'VdName', before: '视频' },
      { field: 'IsTop', before: 0 },
    ]);
  });

  it('cuts long text to an excerpt and marks it', () => {
    const long = '字'.repeat(MAX_TEXT + 50);
    const cut = summarise({ type: 'string' }, long);
    expect(cut.truncated).toBe(true);
    expect([...String(cut.value)]).toHaveLength(MAX_TEXT + 1);
    expect(summarise({ type: 'string' }, '短')).toEqual({ value: '短' });
    expect(summarise({ type: 'string', contentMediaType: 'text/html' }, '<p>一</p><p>二<script>x()</script></p>')).toEqual({ value: '一 二' });
  });

  it('compares objects whatever their key order', () => {
    const before = { Modules: { video: '2', useweb: '1' } };
    expect(diffChanges(memberResource, before, { Modules: { useweb: '1', video: '2' } })).toEqual([]);
    expect(diffChanges(memberResource, before, { Modules: { video: '2' } })).toEqual([
      { field: 'Modules', before: before.Modules, after: { video: '2' } },
    ]);
  });

  it('names a member by name and login, a comment by its text', () => {
    expect(recordName(memberResource, { AuName: '张三', UserName: 'zs' })).toBe('张三 (zs)');
    expect(recordName(videoResource, { VdName: '视频' })).toBe('视频');
    expect(recordName(videoCommentResource, { VmDes: '<p>很好</p><p>谢谢</p>' })).toBe('很好 谢谢');
    expect(recordName(leaky, { Name: 'x' })).toBe('');
  });
});
