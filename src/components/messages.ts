/** The notification of a saved add/edit dialog or sort. */
export const SUCCESS_MESSAGE = '操作成功!';
