/** The notification of a saved add/edit dialog or sort (SPEC.md 2.1). */
export const SUCCESS_MESSAGE = '操作成功!';
