// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RichTextView } from './RichTextView';

afterEach(cleanup);

describe('RichTextView', () => {
  it('drops scripts, handlers and javascript: links, and opens links outside the admin', () => {
    const { container } = render(
      <RichTextView html={'<p onclick="x()">你好<script>alert(1)</script><a href="javascript:alert(1)">坏</a><a href="https://example.com">好</a></p>'} />,
    );
    const html = container.innerHTML;
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onclick');
    expect(html).not.toContain('javascript:');
    const link = container.querySelector('a[href="https://example.com"]');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(container.textContent).toContain('你好');
  });

  it('renders nothing for an empty value', () => {
    const { container } = render(<RichTextView html={null} />);
    expect(container.textContent).toBe('');
  });
});
