import { describe, expect, it } from 'vitest';
import { richTextIsEmpty, sanitizeRichText } from './richText';

// The allow-list itself is tested in schemas/richText.spec.ts; here, the server's instance of it.
describe('sanitizeRichText', () => {
  it('applies the shared allow-list on the server', () => {
    expect(sanitizeRichText('<p style="text-align: center" onclick="x()">好<script>alert(1)</script></p>')).toBe(
      '<p style="text-align: center">好</p>',
    );
    expect(sanitizeRichText('<a href="https://www.gov.cn/">政府网</a>')).toBe(
      '<a href="https://www.gov.cn/" target="_blank" rel="noopener noreferrer">政府网</a>',
    );
    expect(sanitizeRichText('<a href="JaVaScRiPt:alert(1)">x</a><img src=x onerror=alert(1)>')).toBe('<a>x</a>');
  });
});

describe('richTextIsEmpty', () => {
  it.each([
    '',
    '<p></p>',
    '<p><br></p>',
    '<p>   </p>',
    '<p>&nbsp; </p>',
    '<p>\u200b</p>',
    '<p><strong> </strong></p><p><br></p>',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<style>p{}</style>',
  ])('treats %j as empty', (html) => expect(richTextIsEmpty(html)).toBe(true));

  it.each(['<p>好</p>', '<p>0</p>', '<p><img src="https://e.com/a.png"></p>', '<p><img src="/files/image/a.png"></p>'])(
    'treats %j as content',
    (html) => expect(richTextIsEmpty(html)).toBe(false),
  );
});
