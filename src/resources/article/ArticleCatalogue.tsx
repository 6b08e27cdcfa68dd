import { useCallback, useMemo, useState } from 'react';
import { Box, Paper } from '@mui/material';
import { ListBase, type RaRecord } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { articleResource } from '../../../schemas/standardArticle';
import { ROOT_CODE } from '../../../schemas/standardClassify';
import { LazyCategoryTree as CategoryTree } from '../../components/tree/LazyCategoryTree';
import { useCategoryTree } from '../../components/tree/useCategoryTree';
import { placeName } from '../../components/tree/buildTree';
import { FULL_TEXT_CHOICE, FULL_TEXT_FIELD, FullTextPager, FullTextResults, hitText } from '../../components/fullText/FullTextResults';
import { useFullTextSearch } from '../../components/fullText/useFullTextSearch';
import type { FullTextHit } from '../../../schemas/fullText';
import { ExportButton } from '../../components/ExportButton';
import { ListSettled } from '../../components/ListSettled';
import { toPageType } from '../../util/pageType';
import { articleFilter, catalogueColumns, catalogueSearchChoices, readPageSize, savePageSize } from './articleRules';
import { ArticleTable, ViewButton } from './ArticleTable';
import { useArticleView } from './ArticleView';
import { CataloguePagination } from './CataloguePagination';
import { PANE_HEIGHT } from './layout';
import { SearchBar, type AppliedSearch } from '../../components/SearchBar';

/**
 * The tree pane with its own data: the 10,000 categories arriving re-render the tree alone, not
 * the article table beside it.
 */
function CatalogueTree({ type, selected, onSelect, enabled }: { type: number; selected: string; onSelect: (code: string) => void; enabled: boolean }) {
  const { tree, isPending, error } = useCategoryTree('classify', type, enabled);
  return <CategoryTree title="文章分类" root={tree?.root} selected={selected} onSelect={onSelect} isPending={isPending} error={error} />;
}

/**
 * 全文: the hits of the type's documents under the category (and its children) in place of the
 * table; a file's hit opens the file (at its page), an edited article's its 预览.
 */
function FullTextPane({ type, code, text, onPreview }: { type: number; code: string; text: string; onPreview: (record: RaRecord) => void }) {
  const search = useFullTextSearch(articleResource, { text, type, scCode: code === ROOT_CODE ? null : code });
  // The hits' category names: the tree pane's classifications, from the same query.
  const { tree } = useCategoryTree('classify', type);
  const placeOf = useCallback((scCode: string) => placeName(tree, scCode), [tree]);
  const open = useCallback((hit: FullTextHit) => onPreview({ id: hit.Id, SaCode: hitText(hit, 'SaCode'), SaName: hitText(hit, 'SaName') }), [onPreview]);
  return (
    <>
      <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
        <FullTextResults descriptor={articleResource} search={search} text={text} placeOf={placeOf} onOpen={open} />
      </Box>
      <FullTextPager search={search} />
    </>
  );
}

function Catalogue({ type }: { type: number }) {
  const [params, setParams] = useSearchParams();
  const code = params.get('ScCode') || ROOT_CODE;
  const [search, setSearch] = useState<AppliedSearch | null>(null);
  // The remembered size is read once; later changes are kept both here and in the cookie.
  const [perPage, setPerPage] = useState(readPageSize);
  const { view, preview, dialogs } = useArticleView(articleResource.resource);
  // The classifications are asked for once the articles have answered (ListSettled).
  const [treeWanted, setTreeWanted] = useState(false);
  const wantTree = useCallback(() => setTreeWanted(true), [setTreeWanted]);

  // The selection lives in the query (ScCode), so that the page can be linked and reloaded as is.
  const select = useCallback(
    (next: string) =>
      setParams(
        (prev) => {
          const query = new URLSearchParams(prev);
          if (next === ROOT_CODE) query.delete('ScCode');
          else query.set('ScCode', next);
          return query;
        },
        { replace: true },
      ),
    [setParams],
  );

  const searchChoices = useMemo(() => [...catalogueSearchChoices(type), FULL_TEXT_CHOICE], [type]);
  const reset = useCallback(() => setSearch(null), [setSearch]);
  const applySearch = useCallback(
    (next: AppliedSearch) => {
      setSearch(next);
      // The hits name their categories from the tree.
      if (next.field === FULL_TEXT_FIELD) wantTree();
    },
    [setSearch, wantTree],
  );
  const fullText = search?.field === FULL_TEXT_FIELD ? search.value : null;

  const filter = { ...articleFilter(code, type), ...(search && fullText === null ? { [search.field]: search.value } : {}) };
  return (
    <Box sx={{ display: 'flex', gap: 2, height: PANE_HEIGHT, minHeight: 420, mt: 1 }}>
      <Box sx={{ width: 280, flexShrink: 0, minHeight: 0 }}>
        <CatalogueTree type={type} selected={code} onSelect={select} enabled={treeWanted} />
      </Box>
      <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <Box sx={{ p: 1.5, borderBottom: 1, borderColor: 'divider', display: 'flex', alignItems: 'center', gap: 1 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <SearchBar choices={searchChoices} onSearch={applySearch} onReset={reset} />
          </Box>
          {/* An export is of the table's rows: there is none while the hits replace it. */}
          {fullText === null && <ExportButton descriptor={articleResource} filter={filter} />}
        </Box>
        {fullText !== null ? (
          <FullTextPane type={type} code={code} text={fullText} onPreview={preview} />
        ) : (
          <ListBase
            // Another category or search starts on page 1.
            key={`${code}|${search?.field ?? ''}|${search?.value ?? ''}`}
            resource={articleResource.resource}
            filter={filter}
            perPage={perPage}
            disableSyncWithLocation
            storeKey={false}
            disableAuthentication // the member is checked once, by the screen's guard (see SchemaList)
          >
            <ListSettled onSettled={wantTree} />
            <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
              <ArticleTable
                descriptor={articleResource}
                columns={catalogueColumns(type)}
                actions={(record) => <ViewButton onClick={() => view(record)} />}
              />
            </Box>
            <CataloguePagination
              onPerPageChange={(size) => {
                savePageSize(size);
                setPerPage(size);
              }}
            />
          </ListBase>
        )}
      </Paper>
      {dialogs}
    </Box>
  );
}

/** 标准图集 / 法律法规 / 造价刊物 / 公司通用文档, by the query `type`. */
export default function ArticleCatalogue() {
  const [params] = useSearchParams();
  const type = toPageType(params.get('type'));
  return (
    <>
      {/* Another document type is another page: its own tree, search and pages. */}
      <Catalogue key={type} type={type} />
    </>
  );
}
