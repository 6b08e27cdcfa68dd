import { useCallback, useMemo, useState } from 'react';
import { Alert, Box, Divider, List, ListItem, ListItemButton, ListItemText, Paper, Tab, Tabs, Typography } from '@mui/material';
import { ListBase, useGetOne, useListContext, type RaRecord } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { tykjArticleResource } from '../../../schemas/standardArticle';
import { ROOT_CODE } from '../../../schemas/standardClassify';
import { ExportButton } from '../../components/ExportButton';
import { ListEmpty, ListLoading } from '../../components/ListStates';
import { LazyRichTextView as RichTextView, preloadRichTextView } from '../../components/LazyRichTextView';
import { pathTo, placeName } from '../../components/tree/buildTree';
import { useCategoryTree } from '../../components/tree/useCategoryTree';
import { SCROLLING_TABS } from '../../components/scrollingTabs';
import { ZhPagination } from '../../components/ZhPagination';
import { toPageType } from '../../util/pageType';
import { PANE_HEIGHT, SELECTED_TAB_SX } from '../article/layout';
import { TYKJ_SEARCH_CHOICES } from '../article/articleRules';
import { SearchBar, type AppliedSearch } from '../../components/SearchBar';
import { FULL_TEXT_CHOICE, FULL_TEXT_FIELD, FullTextPager, FullTextResults, hitKey, hitText } from '../../components/fullText/FullTextResults';
import { useFullTextSearch } from '../../components/fullText/useFullTextSearch';
import type { FullTextHit } from '../../../schemas/fullText';

/** 文章名称, then 全文. */
const SEARCH_CHOICES = [...TYKJ_SEARCH_CHOICES, FULL_TEXT_CHOICE];

type Row = RaRecord & Record<string, unknown>;

// The first article's answer shows at once: its rich text's code downloads with the screen's.
preloadRichTextView();

/**
 * The article shown: the one chosen, while it is on the page, else the page's first. Derived while
 * rendering rather than chosen in an effect: it shows with the list, in the same pass.
 */
function useShownArticle(chosen: Row | null): Row | null {
  const { data } = useListContext<Row>();
  if (!data || data.length === 0) return null;
  return (chosen && data.find((row) => row.id === chosen.id)) || data[0]!;
}

/** The articles of the list context, the shown one selected; `placeOf` names each one's category (search results). */
function ArticleList({ chosen, onChoose, placeOf }: { chosen: Row | null; onChoose: (row: Row) => void; placeOf?: ((row: Row) => string) | undefined }) {
  const { data, isPending } = useListContext<Row>();
  const shown = useShownArticle(chosen);
  if (isPending) return <ListLoading />;
  if (!data || data.length === 0) return <ListEmpty />;
  return (
    <List dense aria-label="文章列表" sx={{ py: 0 }}>
      {data.map((row) => (
        <ListItem key={row.id} disablePadding sx={{ borderBottom: 1, borderColor: 'divider' }}>
          <ListItemButton selected={row.id === shown?.id} onClick={() => onChoose(row)}>
            <ListItemText
              primary={String(row.SaName ?? '')}
              secondary={placeOf ? `所在分类：${placeOf(row)}` : undefined}
              slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

/** The right pane: an article's name, 问题 and 统一回答 from GetStandardArticleInfoInAdmin. */
function ArticleAnswer({ row, pending, empty }: { row: { id: RaRecord['id']; SaCode?: unknown } | null; pending: boolean; empty: string }) {
  const { data, isPending, error } = useGetOne<Row>(
    tykjArticleResource.resource,
    { id: row?.id ?? 0, meta: { code: row?.SaCode } },
    { enabled: row !== null },
  );
  if (row === null) return pending ? <ListLoading /> : <ListEmpty text={empty} />;
  if (error) return <Alert severity="error">{error instanceof Error ? error.message : '加载失败'}</Alert>;
  if (isPending || !data) return <ListLoading />;
  return (
    <Box component="article" aria-labelledby="tykj-article-title">
      <Typography id="tykj-article-title" component="h2" variant="h6" sx={{ mb: 1 }}>
        {String(data.SaName ?? '')}
      </Typography>
      <Divider sx={{ mb: 2 }} />
      <Box component="section" aria-labelledby="tykj-problem" sx={{ mb: 3 }}>
        <Typography id="tykj-problem" component="h3" variant="subtitle1" sx={{ fontWeight: 600, color: 'primary.main', mb: 1 }}>
          问题
        </Typography>
        <RichTextView html={typeof data.SaProblem === 'string' ? data.SaProblem : ''} />
      </Box>
      <Box component="section" aria-labelledby="tykj-answer">
        <Typography id="tykj-answer" component="h3" variant="subtitle1" sx={{ fontWeight: 600, color: 'success.main', mb: 1 }}>
          统一回答
        </Typography>
        <RichTextView html={typeof data.SaAnswer === 'string' ? data.SaAnswer : ''} />
      </Box>
    </Box>
  );
}

/** The shown article of the list: the chosen one, else the page's first. */
function Answer({ chosen }: { chosen: Row | null }) {
  const { isPending } = useListContext<Row>();
  const row = useShownArticle(chosen);
  return <ArticleAnswer row={row} pending={isPending} empty="请选择文章" />;
}

/**
 * 全文 through every tab of the type, like the search by name: the hits in place of the list, each
 * saying the tab (category) its answer lives in; the chosen hit's answer (else the first's) beside them.
 */
function TykjFullText({ type, text, placeOf }: { type: number; text: string; placeOf: (code: string) => string }) {
  const search = useFullTextSearch(tykjArticleResource, { text, type });
  const [chosen, setChosen] = useState<FullTextHit | null>(null);
  const hits = search.data?.hits ?? [];
  const shown = (chosen && hits.find((hit) => hitKey(hit) === hitKey(chosen))) || hits[0] || null;
  return (
    <Box sx={{ display: 'flex', gap: 2, flex: 1, minHeight: 0 }}>
      <Paper variant="outlined" sx={{ width: 420, flexShrink: 0, display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
          <FullTextResults descriptor={tykjArticleResource} search={search} text={text} placeOf={placeOf} onOpen={setChosen} selected={shown} />
        </Box>
        <FullTextPager search={search} />
      </Paper>
      <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, p: 3, overflow: 'auto' }}>
        <ArticleAnswer row={shown ? { id: shown.Id, SaCode: hitText(shown, 'SaCode') } : null} pending={search.isPending && !search.isError} empty="请选择搜索结果" />
      </Paper>
    </Box>
  );
}

function Tykj({ type }: { type: number }) {
  const [params, setParams] = useSearchParams();
  const { tree, isPending, error } = useCategoryTree('tykjClassify', type);
  const [search, setSearch] = useState<AppliedSearch | null>(null);
  const reset = useCallback(() => setSearch(null), [setSearch]);
  // The article the member clicked; until then (and once it leaves the page) the page's first.
  const [chosen, setChosen] = useState<Row | null>(null);

  const tabs = useMemo(() => tree?.root.children ?? [], [tree]);
  // The query ScCode picks the category (a sub-category lights up its top-level tab); default the first tab.
  const queryCode = params.get('ScCode') ?? '';
  const known = tree !== undefined && queryCode !== '' && queryCode !== ROOT_CODE && tree.byCode.has(queryCode);
  const code = known ? queryCode : (tabs[0]?.id ?? null);
  // A search looks through every tab: its results belong to none, each says where it lives.
  const searching = search !== null;
  const tab = searching || code === null || !tree ? false : (pathTo(tree, code)[0] ?? false);
  const placeOf = useCallback((row: Row) => placeName(tree, String(row.ScCode ?? '')), [tree]);
  const placeOfCode = useCallback((scCode: string) => placeName(tree, scCode), [tree]);
  const fullText = search?.field === FULL_TEXT_FIELD ? search.value : null;

  const choose = useCallback(
    (next: string) =>
      setParams(
        (prev) => {
          const query = new URLSearchParams(prev);
          query.set('ScCode', next);
          return query;
        },
        { replace: true },
      ),
    [setParams],
  );

  const filter = searching && fullText === null ? { ScCode: null, type, [search.field]: search.value } : { ScCode: code, type };
  return (
    <Box sx={{ mt: 1, height: PANE_HEIGHT, minHeight: 480, display: 'flex', flexDirection: 'column' }}>
      <Paper variant="outlined" sx={{ p: 1.5, mb: 1, flexShrink: 0, display: 'flex', alignItems: 'center', gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <SearchBar choices={SEARCH_CHOICES} onSearch={setSearch} onReset={reset} />
        </Box>
        {/* An export is of the list's rows: there is none while the hits replace it. */}
        {fullText === null && <ExportButton descriptor={tykjArticleResource} filter={filter} />}
      </Paper>
      {error ? (
        <Alert severity="error">分类加载失败</Alert>
      ) : isPending ? (
        <ListLoading />
      ) : tabs.length === 0 ? (
        <ListEmpty text="暂无分类" />
      ) : (
        <>
          <Tabs
            value={tab}
            onChange={(_event, value: string) => {
              setSearch(null);
              choose(value);
            }}
            {...SCROLLING_TABS}
            aria-label="统一口径分类"
            sx={{ ...SCROLLING_TABS.sx, ...SELECTED_TAB_SX, mb: 1, flexShrink: 0 }}
          >
            {tabs.map((node) => (
              <Tab key={node.id} value={node.id} label={node.name} />
            ))}
          </Tabs>
          {fullText !== null ? (
            <TykjFullText type={type} text={fullText} placeOf={placeOfCode} />
          ) : (
            <ListBase
              key={searching ? `search|${search.field}|${search.value}` : `tab|${code ?? ''}`}
              resource={tykjArticleResource.resource}
              filter={filter}
              perPage={tykjArticleResource.pageSize}
              disableSyncWithLocation
              storeKey={false}
              disableAuthentication // the member is checked once, by the screen's guard (see SchemaList)
            >
              <Box sx={{ display: 'flex', gap: 2, flex: 1, minHeight: 0 }}>
                <Paper variant="outlined" sx={{ width: 320, flexShrink: 0, display: 'flex', flexDirection: 'column', minHeight: 0 }}>
                  <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
                    <ArticleList chosen={chosen} onChoose={setChosen} placeOf={searching ? placeOf : undefined} />
                  </Box>
                  <ZhPagination />
                </Paper>
                <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, p: 3, overflow: 'auto' }}>
                  <Answer chosen={chosen} />
                </Paper>
              </Box>
            </ListBase>
          )}
        </>
      )}
    </Box>
  );
}

/** 统一口径, with its query ScCode (and the page `type`, default 0). */
export default function TykjView() {
  const [params] = useSearchParams();
  const type = toPageType(params.get('type'));
  return (
    <>
      <Tykj key={type} type={type} />
    </>
  );
}
