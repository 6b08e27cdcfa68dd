// react-admin's own messages in Chinese. @haxqer/ra-language-chinese targets react-admin 4: the
// keys react-admin 5 added (compared with ra-language-english 5.15) are completed here, its
// sentences get Chinese punctuation, and a few of its wordings are aligned with the legacy product.
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

/**
 * The pack's sentences with Chinese punctuation (，。：？！“”) and a polite, plain tone (您, no
 * English words): its half-width marks and machine-translated phrasing read as foreign.
 * punctuation.spec.ts checks every message.
 */
const CHINESE_WORDING: Messages = {
  ra: {
    // One form: polyglot gives Chinese a single plural form, so the pack's "选中1项 |||| 选中%{smart_count}项" always said 选中1项.
    action: { unselect: '取消选择', select_all: '全选', bulk_actions: '已选择 %{smart_count} 项' },
    auth: { sign_in_error: '登录失败，请重试。' },
    configurable: { inspector: { title: '检查器' } },
    input: {
      file: {
        upload_several: '将文件拖到此处，或点击选择文件。',
        upload_single: '将文件拖到此处，或点击选择文件。',
      },
      image: {
        upload_several: '将图片拖到此处，或点击选择图片。',
        upload_single: '将图片拖到此处，或点击选择图片。',
      },
      references: {
        all_missing: '未找到关联数据。',
        many_missing: '至少有一条关联数据已不存在。',
        single_missing: '关联数据已不存在。',
      },
    },
    message: {
      are_you_sure: '确定要执行此操作吗？',
      bulk_delete_content: '确定要删除此%{name}吗？ |||| 确定要删除这 %{smart_count} 项吗？',
      bulk_update_content: '确定要更新此%{name}吗？ |||| 确定要更新这 %{smart_count} 项吗？',
      clear_array_input: '确定要清空整个列表吗？',
      delete_content: '确定要删除该条目吗？',
      error: '客户端出错，请求未能完成。',
      invalid_form: '表单填写有误，请按提示修改。',
      not_found: '您访问的页面不存在，请检查网址或链接是否正确。',
      unsaved_changes: '修改尚未保存，确定要放弃吗？',
    },
    navigation: {
      no_more_results: '第 %{page} 页超出范围，请返回上一页。',
      page_out_of_boundaries: '第 %{page} 页超出范围',
      page_rows_per_page: '每页行数：',
      prev: '上一页',
      partial_page_range_info: '%{offsetBegin}-%{offsetEnd} / 超过 %{offsetEnd} 条',
      current_page: '第 %{page} 页',
      page: '转到第 %{page} 页',
    },
    notification: {
      canceled: '操作已取消',
      data_provider_error: '数据请求出错，请稍后重试。',
      logged_out: '登录已失效，请重新登录。',
      not_authorized: '您没有权限访问此资源。',
      application_update_available: '有新版本可用。',
    },
    page: { invite: '要新增一条吗？', not_found: '页面不存在' },
    saved_queries: {
      new_label: '保存当前查询……',
      remove_label_with_name: '删除查询“%{name}”',
      remove_dialog_title: '删除已保存的查询？',
      remove_message: '确定要从已保存的查询中删除此项吗？',
      help: '筛选列表，并保存此查询',
    },
    validation: {
      oneOf: '必须是以下之一：%{options}',
      regex: '必须符合格式：%{pattern}',
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

export const raChineseMessages = [MISSING_IN_PACK, CHINESE_WORDING, LEGACY_WORDING].reduce(
  deepMerge,
  unwrap(chinesePack),
) as unknown as TranslationMessages;
