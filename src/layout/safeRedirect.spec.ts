import { describe, expect, it } from 'vitest';
import { AFTER_LOGIN_DEFAULT, safeAfterLoginPath } from './safeRedirect';

const ORIGIN = 'https://admin.example.cn';
const go = (nextPathname: unknown, nextSearch: unknown = '') => safeAfterLoginPath({ nextPathname, nextSearch }, ORIGIN);

describe('safeAfterLoginPath', () => {
  it('returns to a page of the app, with its query', () => {
    expect(go('/Knowledge/TYKJ/ClassifyManage', '?type=0')).toBe('/Knowledge/TYKJ/ClassifyManage?type=0');
    expect(go('/useweb')).toBe('/useweb');
    expect(go('/Knowledge/Article/Catalogue', '?type=1&ScCode=a%2Fb')).toBe('/Knowledge/Article/Catalogue?type=1&ScCode=a%2Fb');
  });

  it.each([
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    'https://evil.example',
    'https://evil.example/Knowledge/VideoView',
    'HTTPS://evil.example',
    'javascript:alert(document.domain)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/\tjavascript:alert(1)',
    '/\t/evil.example',
    '/\n/evil.example',
    'evil.example',
    '',
  ])('refuses %j and goes home instead', (target) => {
    expect(go(target)).toBe(AFTER_LOGIN_DEFAULT);
  });

  it('refuses a query that would change the target', () => {
    expect(go('/', '//evil.example')).toBe('/');
    expect(go('/useweb', 'https://evil.example')).toBe('/useweb');
  });

  it('goes home for missing or malformed state, and never back to the login page', () => {
    for (const state of [null, undefined, 'x', 42, {}, { nextPathname: 42 }, { nextPathname: ['/'] }]) {
      expect(safeAfterLoginPath(state, ORIGIN)).toBe(AFTER_LOGIN_DEFAULT);
    }
    expect(go('/login')).toBe(AFTER_LOGIN_DEFAULT);
  });

  it('keeps dot segments inside the app (resolved by URL), never above the origin', () => {
    expect(go('/a/../useweb')).toBe('/useweb');
    expect(go('/../../useweb')).toBe('/useweb');
  });
});
