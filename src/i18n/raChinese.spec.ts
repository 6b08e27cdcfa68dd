import englishMessages from 'ra-language-english';
import { describe, expect, it } from 'vitest';
import { zhMessages } from './index';

type Tree = { [key: string]: unknown };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keys(v as Tree, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function lookup(tree: Tree, path: string): unknown {
  return path.split('.').reduce<unknown>((node, k) => (node as Tree | undefined)?.[k], tree);
}

describe('Chinese messages', () => {
  it('translate every key of react-admin 5 (ra-language-english)', () => {
    const missing = keys(englishMessages as unknown as Tree).filter((k) => typeof lookup(zhMessages as unknown as Tree, k) !== 'string');
    expect(missing).toEqual([]);
  });

  it('use the legacy wordings for loading, confirm and the success notices', () => {
    const zh = zhMessages as unknown as Tree;
    expect(lookup(zh, 'ra.page.loading')).toBe('拼命加载中');
    expect(lookup(zh, 'ra.action.confirm')).toBe('确定');
    expect(lookup(zh, 'ra.notification.deleted')).toBe('删除成功!');
  });

  it('name resources and fields from the schemas', () => {
    const zh = zhMessages as unknown as Tree;
    expect(lookup(zh, 'resources.videoType.name')).toBe('视频分类');
    expect(lookup(zh, 'resources.classify.fields.ScName')).toBe('类型名称');
  });
});
