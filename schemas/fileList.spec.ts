import { describe, expect, it } from 'vitest';
import { checkFileList, MAX_FILES, MAX_NAME_LENGTH, parseFileList } from './fileList';

const entry = (name: string, url: string) => ({ name, url });

describe('parseFileList', () => {
  it('reads a good list, keeping only name and url', () => {
    expect(
      parseFileList('[{"name":"讲义.pdf","url":"/files/handout/2026/01/a.pdf","x":1},{"name":"b","url":"https://e.com/b.pdf"}]'),
    ).toEqual([entry('讲义.pdf', '/files/handout/2026/01/a.pdf'), entry('b', 'https://e.com/b.pdf')]);
    expect(parseFileList('[]')).toEqual([]);
  });

  it.each([
    undefined,
    null,
    42,
    {},
    [entry('a', 'https://e.com/a')], // a value, not JSON text
    '',
    '[',
    '{}',
    '"x"',
    'null',
    '[1]',
    '[null]',
    '[[]]',
    '[{"name":"a"}]',
    '[{"name":1,"url":"https://e.com/a"}]',
    '[{"name":"a","url":"javascript:alert(1)"}]',
    '[{"name":"a","url":"data:text/html,x"}]',
    '[{"name":"a","url":"/etc/passwd"}]',
    '[{"name":"a","url":"/files/../Ajax/Logout"}]',
    '[{"name":"a","url":"//evil.example/a"}]',
    '[{"name":"","url":"https://e.com"}]',
    '[{"name":"  ","url":"https://e.com"}]',
  ])('reads the malformed value %j as empty', (value) => expect(parseFileList(value)).toEqual([]));

  it('reads a partly bad list as empty (malformed means empty)', () => {
    expect(parseFileList(JSON.stringify([entry('a', 'https://e.com/a'), entry('b', 'javascript:alert(1)')]))).toEqual([]);
  });

  it('reads a list longer than the write limit as empty', () => {
    const many = Array.from({ length: MAX_FILES + 1 }, (_, i) => entry(`${i}`, 'https://e.com/a'));
    expect(parseFileList(JSON.stringify(many))).toEqual([]);
  });
});

describe('checkFileList', () => {
  it('normalises a good list', () => {
    expect(checkFileList('[{"url":"https://e.com/a.pdf","name":"a.pdf","size":3}]')).toEqual({
      ok: true,
      value: '[{"name":"a.pdf","url":"https://e.com/a.pdf"}]',
    });
    expect(checkFileList(' [ ] ')).toEqual({ ok: true, value: '[]' });
  });

  it('gives back what parseFileList reads', () => {
    const text = JSON.stringify([entry('讲义一.pdf', '/files/handout/2026/01/a.pdf'), entry('二', 'http://e.com/b')]);
    const checked = checkFileList(text);
    expect(checked.ok && parseFileList(checked.value)).toEqual(JSON.parse(text));
  });

  it.each([
    ['nope', '文件列表格式不正确'],
    ['{}', '文件列表格式不正确'],
    ['[1]', '文件列表格式不正确'],
    ['[[]]', '文件列表格式不正确'],
    ['[{"url":"https://e.com/a"}]', '文件名'],
    ['[{"name":"","url":"https://e.com/a"}]', '文件名'],
    ['[{"name":"a\\u0000b","url":"https://e.com/a"}]', '文件名'],
    ['[{"name":"a"}]', '文件地址不正确'],
    ['[{"name":"a","url":"ftp://e.com/a"}]', '文件地址不正确'],
    ['[{"name":"a","url":"/etc/passwd"}]', '文件地址不正确'],
    ['[{"name":"a","url":"/files/a/../../Ajax/Logout"}]', '文件地址不正确'],
    ['[{"name":"a","url":"JavaScript:alert(1)"}]', '文件地址不正确'],
    ['[{"name":"a","url":"https://e.com/a b"}]', '文件地址不正确'],
  ])('refuses %s', (text, msg) => {
    const result = checkFileList(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.msg).toContain(msg);
  });

  it('accepts names up to the limit, counted in characters', () => {
    const name = '讲'.repeat(MAX_NAME_LENGTH);
    expect(checkFileList(JSON.stringify([entry(name, 'https://e.com/a')])).ok).toBe(true);
    expect(checkFileList(JSON.stringify([entry('😀'.repeat(MAX_NAME_LENGTH), 'https://e.com/a')])).ok).toBe(true);
    expect(checkFileList(JSON.stringify([entry(`${name}x`, 'https://e.com/a')])).ok).toBe(false);
  });

  it('refuses a url over 1000 characters', () => {
    expect(checkFileList(JSON.stringify([entry('a', `https://e.com/${'a'.repeat(1000)}`)])).ok).toBe(false);
  });

  it('accepts the maximum number of files and refuses one more', () => {
    const list = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => entry(`${i}`, 'https://e.com/a')));
    expect(checkFileList(list(MAX_FILES)).ok).toBe(true);
    expect(checkFileList(list(MAX_FILES + 1))).toEqual({ ok: false, msg: `文件不能超过${MAX_FILES}个` });
  });
});
