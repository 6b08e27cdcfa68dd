// @vitest-environment jsdom
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { articleResource } from '../../../schemas/standardArticle';
import { choiceLabel, fieldKind, fieldSchema } from '../../components/schemaFields';
import {
  articleFormFields,
  catalogueColumns,
  catalogueSearchChoices,
  DEFAULT_PAGE_SIZE,
  defaultSaType,
  downloadFile,
  manageColumns,
  PAGE_SIZE_COOKIE,
  PAGE_SIZES,
  prepareArticle,
  readPageSize,
  savePageSize,
  searchText,
  toPageSize,
  viewActionOf,
} from './articleRules';

const fields = (columns: { field: string }[]) => columns.map((c) => c.field);

afterEach(() => {
  vi.restoreAllMocks();
  Cookies.remove(PAGE_SIZE_COOKIE, { path: '/' });
});

describe('catalogue columns by document type', () => {
  it('shows 文号 on 法律法规 only and 是否置顶 on 标准图集 and 造价刊物 only', () => {
    expect(fields(catalogueColumns(0))).toEqual(['SaName', 'IsCommon', 'PublishTime']);
    expect(fields(catalogueColumns(1))).toEqual(['SaName', 'SaCodeName', 'PublishTime']);
    expect(fields(catalogueColumns(2))).toEqual(['SaName', 'IsCommon', 'PublishTime']);
    expect(fields(catalogueColumns(3))).toEqual(['SaName', 'PublishTime']);
  });

  it('renders 是否置顶 as 是/否 tags and 发布时间 as a date', () => {
    expect(fieldKind(articleResource, 'IsCommon')).toBe('flag');
    expect(choiceLabel(fieldSchema(articleResource, 'IsCommon'), 1)).toBe('是');
    expect(choiceLabel(fieldSchema(articleResource, 'IsCommon'), 0)).toBe('否');
    expect(fieldKind(articleResource, 'PublishTime')).toBe('date');
  });

  it('management shows 排序 and 文章名称', () => {
    expect(fields(manageColumns())).toEqual(['SaSort', 'SaName']);
  });

  it('searches by 文章名称, and on 法律法规 also by 文号', () => {
    expect(catalogueSearchChoices(0)).toEqual([{ field: 'SaName', label: '文章名称' }]);
    expect(catalogueSearchChoices(1)).toEqual([
      { field: 'SaName', label: '文章名称' },
      { field: 'SaCodeName', label: '文号' },
    ]);
  });

  it('treats blank search text as empty (nothing is sent)', () => {
    expect(searchText('   ')).toBeNull();
    expect(searchText(' 建筑法 ')).toBe('建筑法');
  });
});

describe('page size cookie', () => {
  it('offers 8, 10, 12, 15, 20, 50 with 12 by default', () => {
    expect([...PAGE_SIZES]).toEqual([8, 10, 12, 15, 20, 50]);
    expect(DEFAULT_PAGE_SIZE).toBe(12);
    expect(readPageSize()).toBe(12);
  });

  it('is named after the project and kept 365 days at path /', () => {
    const set = vi.spyOn(Cookies, 'set');
    savePageSize(20);
    expect(PAGE_SIZE_COOKIE.startsWith('zhishi-admin')).toBe(true);
    expect(set).toHaveBeenCalledWith(PAGE_SIZE_COOKIE, '20', expect.objectContaining({ expires: 365, path: '/' }));
    expect(document.cookie).toContain(`${PAGE_SIZE_COOKIE}=20`);
    expect(readPageSize()).toBe(20);
  });

  it('reads a value that is not a choice as the default', () => {
    document.cookie = `${PAGE_SIZE_COOKIE}=13; path=/`;
    expect(readPageSize()).toBe(12);
    expect(toPageSize('abc')).toBe(12);
    expect(toPageSize('50')).toBe(50);
  });
});

describe('查看', () => {
  const file = (name: string) => ({ name, url: `/files/handout/${name}` });

  it('downloads the only file of an uploaded article directly', () => {
    expect(viewActionOf({ SaType: 0, SaPdfUrl: JSON.stringify([file('a.pdf')]) })).toEqual({ kind: 'download', file: file('a.pdf') });
  });

  it('lists several files in 文件下载', () => {
    expect(viewActionOf({ SaType: 0, SaPdfUrl: JSON.stringify([file('a.pdf'), file('b.pdf')]) })).toEqual({
      kind: 'files',
      files: [file('a.pdf'), file('b.pdf')],
    });
  });

  it('previews an edited article, whatever its file list', () => {
    expect(viewActionOf({ SaType: 1, SaPdfUrl: JSON.stringify([file('a.pdf')]) })).toEqual({ kind: 'preview' });
  });

  it('has nothing to open for an uploaded article without files or with a malformed list', () => {
    expect(viewActionOf({ SaType: 0, SaPdfUrl: '[]' })).toEqual({ kind: 'none' });
    expect(viewActionOf({ SaType: 0, SaPdfUrl: '{oops' })).toEqual({ kind: 'none' });
    expect(viewActionOf({ SaType: 0, SaPdfUrl: JSON.stringify([{ name: 'x', url: 'javascript:alert(1)' }]) })).toEqual({ kind: 'none' });
  });

  it('downloads through a link named after the file, and never follows another scheme', () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.getAttribute('href')).toBe('/files/handout/a.pdf');
      expect(this.download).toBe('a.pdf');
    });
    expect(downloadFile(file('a.pdf'))).toBe(true);
    expect(click).toHaveBeenCalledTimes(1);
    expect(document.querySelectorAll('a').length).toBe(0);
    expect(downloadFile({ name: 'x', url: 'javascript:alert(1)' })).toBe(false);
    expect(click).toHaveBeenCalledTimes(1);
  });
});

describe('文章目录详情 form', () => {
  it('shows 文号 on type 1, 是否置顶 on types 0 and 2, and files or rich text by the content type', () => {
    expect(articleFormFields(0, 0)).toEqual(['SaType', 'SaName', 'SaSort', 'PublishTime', 'IsCommon', 'SaPdfUrl']);
    expect(articleFormFields(1, 1)).toEqual(['SaType', 'SaName', 'SaCodeName', 'SaSort', 'PublishTime', 'SaPdfContent']);
    expect(articleFormFields(2, 1)).toEqual(['SaType', 'SaName', 'SaSort', 'PublishTime', 'IsCommon', 'SaPdfContent']);
    expect(articleFormFields(3, 0)).toEqual(['SaType', 'SaName', 'SaSort', 'PublishTime', 'SaPdfUrl']);
  });

  it('starts 法律法规 articles as edited articles', () => {
    expect(defaultSaType(1)).toBe(1);
    expect(defaultSaType(0)).toBe(0);
    expect(defaultSaType(3)).toBe(0);
  });

  it('sends SaSort as a number and leaves an empty date to the server', () => {
    expect(prepareArticle({ SaName: 'x', SaSort: '7', PublishTime: '', SaType: '1', SaCodeName: null })).toEqual({
      SaName: 'x',
      SaSort: 7,
      SaType: 1,
      SaCodeName: '',
    });
    expect(prepareArticle({ SaSort: null }).SaSort).toBe(0);
  });
});
