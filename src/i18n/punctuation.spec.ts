import { describe, expect, it } from 'vitest';
import { zhMessages } from './index';
import { halfWidthPunctuation } from './punctuation';

type Tree = { [key: string]: unknown };

/** Every message of the tree with its dotted key. */
function messages(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]): [string, string][] =>
    typeof v === 'object' && v !== null ? messages(v as Tree, `${prefix}${k}.`) : typeof v === 'string' ? [[`${prefix}${k}`, v]] : [],
  );
}

describe('halfWidthPunctuation', () => {
  it('finds half-width marks beside Chinese characters, placeholders counting as words', () => {
    expect(halfWidthPunctuation('表单输入无效. 请检查错误提示')).toEqual(['效.']);
    expect(halfWidthPunctuation('您输入了错误的URL或者错误的链接..')).toEqual(['接..']);
    expect(halfWidthPunctuation('是否确实要更新这些 %{smart_count} ?')).toEqual(['字 ?']);
    expect(halfWidthPunctuation('删除查询 "%{name}"')).toEqual(['询 "', '字"']);
  });

  it('accepts full-width marks, Latin text and the legacy messages', () => {
    expect(halfWidthPunctuation('表单填写有误，请按提示修改。')).toEqual([]);
    expect(halfWidthPunctuation('%{offsetBegin}-%{offsetEnd} / %{total}')).toEqual([]);
    expect(halfWidthPunctuation('Inspector: v1.2')).toEqual([]);
    expect(halfWidthPunctuation('操作成功!')).toEqual([]);
    expect(halfWidthPunctuation('此操作将永久删除该记录, 是否继续?')).toEqual([]);
  });
});

describe('the messages the app shows (react-admin, resources and fields)', () => {
  it('use full-width punctuation beside Chinese text', () => {
    const problems = messages(zhMessages as unknown as Tree)
      .map(([key, text]) => [key, text, halfWidthPunctuation(text)] as const)
      .filter(([, , found]) => found.length > 0)
      .map(([key, text, found]) => `${key} = ${JSON.stringify(text)}: ${found.join(' ')}`);
    expect(problems).toEqual([]);
  });
});
