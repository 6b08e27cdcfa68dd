// react-admin's own messages in Chinese. @haxqer/ra-language-chinese targets react-admin 4: the
// keys react-admin 5 added (compared with ra-language-english 5.15) are completed here, and a few
// of its wordings are aligned with the legacy product.
import chinesePack from '@haxqer/ra-language-chinese';
import type { TranslationMessages } from 'react-admin';

type Messages = { [key: string]: string | Messages };

/** The pack is CommonJS with `exports.default`; bundlers unwrap it, Node's interop does not. */
function unwrap(mod: unknown): Messages {
  const m = mod as { ra?: unknown; default?: unknown };
  if (m && typeof m === 'object' && m.ra) return m as Messages;
  return (m?.default ?? {}) as Messages;
}

export function deepMerge(base: Messages, extra: Messages): Messages {
  const out: Messages = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = out[key];
    out[key] =
      typeof value === 'object' && typeof current === 'object' ? deepMerge(current, value) : value;
  }
  return out;
}

/** Keys of react-admin 5 missing from the react-admin 4 pack. */
export const MISSING_IN_PACK: Messages = {
  ra: {
    action: {
      reset: '重置',
      search_columns: '搜索列',
      select_all_button: '全选',
    },
    page: {
      access_denied: '无权限',
      authentication_error: '认证错误',
    },
    message: {
      access_denied: '您没有访问此页面的权限',
      authentication_error: '认证服务器返回错误，无法验证您的身份。',
      select_all_limit_reached: '条目过多，无法全部选中。仅选中了前 %{max} 项。',
      placeholder_data_warning: '网络问题：数据刷新失败。',
    },
    navigation: {
      clear_filters: '清除筛选',
      no_filtered_results: '当前筛选条件下没有%{name}。',
    },
    auth: {
      email: '邮箱',
    },
    notification: {
      offline: '网络未连接，无法获取数据。',
    },
    validation: {
      unique: '必须唯一',
    },
    guesser: {
      empty: {
        title: '暂无数据',
        message: '请检查数据提供者',
      },
    },
  },
};

/** Wordings of the legacy product where the pack says it differently. */
const LEGACY_WORDING: Messages = {
  ra: {
    action: { confirm: '确定', cancel: '取消', save: '保存', add: '添加', create: '新增', back: '返回' },
    page: { loading: '拼命加载中', empty: '暂无数据' },
    navigation: { no_results: '暂无数据', previous: '上一页', next: '下一页' },
    notification: { updated: '操作成功!', created: '操作成功!', deleted: '删除成功!' },
    message: { loading: '请稍候' },
    // The rich-text editor's toolbar (ra-input-rich-text ships English only).
    tiptap: {
      align_left: '左对齐',
      align_right: '右对齐',
      align_center: '居中',
      align_justify: '两端对齐',
      bold: '加粗',
      italic: '斜体',
      underline: '下划线',
      strike: '删除线',
      code: '代码',
      blockquote: '引用',
      clear_format: '清除格式',
      color: '文字颜色',
      highlight: '高亮',
      image: '图片',
      image_dialog: '图片地址',
      link: '链接',
      list_bulleted: '项目符号列表',
      list_numbered: '编号列表',
      paragraph: '正文',
      heading1: '标题 1',
      heading2: '标题 2',
      heading3: '标题 3',
      select_level: '选择段落级别',
      current_level: '当前级别',
    },
  },
};

export const raChineseMessages = deepMerge(
  deepMerge(unwrap(chinesePack), MISSING_IN_PACK),
  LEGACY_WORDING,
) as unknown as TranslationMessages;
