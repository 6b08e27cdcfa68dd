import { describe, expect, it } from 'vitest';
import { checkFileList, MAX_FILES, parseFileList } from './fileList';

describe('parseFileList', () => {
  it('reads a good list, keeping only name and url', () => {
    expect(parseFileList('[{"name":"讲义.pdf","url":"/files/handout/2026/01/a.pdf","x":1}]')).toEqual([
      { name: '讲义.pdf', url: '/files/handout/2026/01/a.pdf' },
    ]);
  });

  it.each([undefined, null, 42, '', '[', '{}', '"x"', '[1]', '[{"name":"a"}]', '[{"name":"a","url":"javascript:alert(1)"}]', '[{"name":"","url":"https://e.com"}]'])(
    'reads the malformed value %s as empty',
    (value) => expect(parseFileList(value)).toEqual([]),
  );
});

describe('checkFileList', () => {
  it('normalises a good list', () => {
    expect(checkFileList('[{"url":"https://e.com/a.pdf","name":"a.pdf","size":3}]')).toEqual({
      ok: true,
      value: '[{"name":"a.pdf","url":"https://e.com/a.pdf"}]',
    });
    expect(checkFileList('[]')).toEqual({ ok: true, value: '[]' });
  });

  it.each(['nope', '{}', '[{"name":"a","url":"ftp://e.com/a"}]', '[{"name":"a","url":"/etc/passwd"}]'])('refuses %s', (text) => {
    const result = checkFileList(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.msg).toMatch(/文件/);
  });

  it('refuses more than the maximum number of files', () => {
    const many = JSON.stringify(Array.from({ length: MAX_FILES + 1 }, (_, i) => ({ name: `${i}`, url: 'https://e.com/a' })));
    expect(checkFileList(many).ok).toBe(false);
  });
});
