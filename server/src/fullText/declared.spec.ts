// What the full-text index needs of the descriptors that declare `fullText` holds for every one.
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../schemas/index';
import { searchedNoticeResource } from '../../../tests/helpers/schemaFixtures';
import { FULL_TEXT_RESOURCES, fullTextProblems, typeFilter } from './declared';

describe('the descriptors with fullText', () => {
  it('have a type filter the index can copy (an integer field)', () => {
    expect(FULL_TEXT_RESOURCES.length).toBeGreaterThan(0);
    expect(RESOURCES.flatMap(fullTextProblems)).toEqual([]);
    expect(typeFilter(searchedNoticeResource)).toBe('IsPinned');
    expect(fullTextProblems(searchedNoticeResource)).toEqual([]);
    const byText = { ...searchedNoticeResource, filters: ['NtTitle'] };
    expect(fullTextProblems(byText)).toEqual(["fixtureSearchedNotice: the full-text search's type filter NtTitle must be an integer field (FT_PAGE.TYPE)"]);
  });
});
