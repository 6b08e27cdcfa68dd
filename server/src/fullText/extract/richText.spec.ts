import { describe, expect, it } from 'vitest';
import { richTextToText } from './index';

describe('richTextToText', () => {
  it('gives each block its own paragraph, and inline markup none', () => {
    expect(richTextToText('<h2>第一章 总则</h2><p>工程<strong>造价</strong>的<em>计价</em>规范</p><p>第二段</p>')).toBe(
      '第一章总则\n\n工程造价的计价规范\n\n第二段',
    );
  });

  it('separates lines (<br>), list items and table cells, so their words never run together', () => {
    expect(richTextToText('<p>地址：北京<br>电话：010</p><ul><li>清单</li><li>计价</li></ul>')).toBe('地址：北京\n\n电话：010\n\n清单\n\n计价');
    expect(richTextToText('<table><tbody><tr><td>工程</td><td>造价</td></tr><tr><th>图集</th></tr></tbody></table>')).toBe('工程\n\n造价\n\n图集');
  });

  it('decodes entities and collapses white space as a browser shows it', () => {
    expect(richTextToText('<p>&lt;GB&gt;&nbsp;&amp;&#x5DE5;&#31243;   50500\n 2013</p>')).toBe('<GB> &工程 50500 2013');
  });

  it('joins source line breaks inside Chinese text, as a browser shows them', () => {
    expect(richTextToText('<p>建设工程造\n价</p>')).toBe('建设工程造价');
  });

  it('normalises radicals', () => {
    expect(richTextToText('<p>\u2f2f程第3\u2eda</p>')).toBe('工程第3页');
  });

  it('leaves out what is not shown: scripts, styles, comments, images', () => {
    expect(richTextToText('<p>正文<!-- 注释 --><img src="/a.png" alt="图片"></p><script>alert(1)</script><style>p{}</style>')).toBe('正文');
  });

  it('reads deep nesting without recursion, and empty bodies', () => {
    expect(richTextToText('<div>'.repeat(20000) + '深处' + '</div>'.repeat(20000))).toBe('深处');
    expect(richTextToText('')).toBe('');
    expect(richTextToText('<p></p><p>&nbsp;</p>')).toBe('');
  });
});
