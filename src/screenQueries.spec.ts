import { describe, expect, it } from 'vitest';
import { legacyDataProvider } from './dataProvider/index';
import { openingQueries } from './screenQueries';

/** The calls a path's opening queries make, as `Service/Call body`. */
function calls(pathname: string, search = ''): string[] {
  const dp = legacyDataProvider('');
  return openingQueries(pathname, search).map(({ resource, query }) => {
    const { url, body } = dp.listRequest(resource, query);
    return `${url} ${body}`;
  });
}

describe('openingQueries', () => {
  it('asks for the first page of the plain lists, or every website', () => {
    expect(calls('/videoType')).toEqual(['/Ajax/GetVideoTypeListInAdmin {"pageIndex":1,"pageSize":15,"OrderName":"VDT_SORT ASC"}']);
    expect(calls('/useweb')).toEqual([expect.stringMatching(/^\/Ajax\/\w+ \{"All":1,"OrderName":"[^"]+"\}$/)]);
    expect(calls('/member')).toHaveLength(1);
  });

  it('asks for the video categories on both video screens, not for videos (they wait for the first category)', () => {
    const tabs = ['/Ajax/GetVideoTypeListInAdmin {"All":1,"OrderName":"VDT_SORT ASC"}'];
    expect(calls('/video')).toEqual(tabs);
    expect(calls('/Knowledge/VideoView')).toEqual(tabs);
    expect(calls('/Knowledge/VideoView/Details', '?Id=3')).toEqual([]);
  });

  it('takes the page type and the category from the address', () => {
    const [tree, list] = calls('/Knowledge/Article/Catalogue', '?type=2&ScCode=abc');
    expect(tree).toMatch(/^\/Xcx1\/\w+ \{"All":1,"OrderName":"SC_SORT ASC","type":2\}$/);
    expect(list).toMatch(/"pageIndex":1,"pageSize":12,.*"ScCode":"abc","type":2/);
    expect(calls('/Knowledge/Article/Manage', '?type=1')[1]).toMatch(/"ScCode":"0","type":1/);
    expect(calls('/Knowledge/Article/ClassifyManage/3', '?code=x1')).toEqual([expect.stringMatching(/"ScFatherCode":"x1","type":3/)]);
    expect(calls('/Knowledge/TYKJ/ClassifyManage', '?type=0')).toEqual([expect.stringMatching(/^\/Xcx3\/.*"ScFatherCode":"0","type":0/)]);
    expect(calls('/Knowledge/TYKJ')).toEqual([expect.stringMatching(/^\/Xcx3\/\w+ \{"All":1,"OrderName":"SC_SORT ASC","type":0\}$/)]);
  });

  it('asks for nothing on other addresses', () => {
    expect(calls('/')).toEqual([]);
    expect(calls('/login')).toEqual([]);
    expect(calls('/auditLog')).toEqual([]);
  });
});
