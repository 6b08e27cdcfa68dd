// The results of a full-text search (全文) in place of a screen's list: each hit's article, its
// category, where it lies (a file's page, or a rich-text field) and the snippet with the searched
// words marked; the total (1000+ past the server's count), the pager, and the loading, empty and
// failed states in Chinese.
import { Fragment } from 'react';
import { Alert, Box, Button, Link as MuiLink, Pagination, Typography } from '@mui/material';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { fieldTitle } from '../../../schemas/fieldKinds';
import { FULL_TEXT_MAX_CHARS, type FullTextHit } from '../../../schemas/fullText';
import { ListEmpty, ListLoading } from '../ListStates';
import { isFileUrl } from '../SafeLink';
import type { SearchChoice } from '../SearchBar';
import { pageAriaLabel } from '../ZhPagination';
import { fileHitUrl, highlightSegments, totalText } from './highlight';
import type { FullTextSearch } from './useFullTextSearch';

/** The search box's 全文 choice: not a field of the schema, the contents of the documents. */
export const FULL_TEXT_FIELD = '@fullText';
export const FULL_TEXT_CHOICE: SearchChoice = { field: FULL_TEXT_FIELD, label: '全文', maxLength: FULL_TEXT_MAX_CHARS };

/** A hit's identity among a page's hits: one per (article, file, page) or (article, field). */
/** A text field of a hit's record (its name, 文号, category), as the answer carries it. */
export const hitText = (hit: FullTextHit, field: string): string => (typeof hit[field] === 'string' ? hit[field] : '');

export const hitKey = (hit: FullTextHit) => `${hit.Id}|${hit.Source}|${hit.FileUrl ?? ''}|${hit.Page ?? ''}`;

/** The snippet as text segments, the highlighted words in <mark>: never the server's text as HTML. */
export function Snippet({ text, highlights }: { text: string; highlights: unknown }) {
  return (
    <Typography
      variant="body2"
      sx={{ mt: 0.5, color: 'text.primary', wordBreak: 'break-all', '& mark': { bgcolor: 'warning.light', color: 'inherit', borderRadius: 0.5, px: 0.25 } }}
    >
      {highlightSegments(text, highlights).map((segment, i) =>
        segment.mark ? <mark key={i}>{segment.text}</mark> : <Fragment key={i}>{segment.text}</Fragment>,
      )}
    </Typography>
  );
}

/** Where a hit lies: the file's name and the page, or the rich-text field's title (内容, 问题, 统一回答). */
export function sourceText(descriptor: ResourceDescriptor, hit: FullTextHit): string {
  if (hit.Source === 'file') return `${hit.FileName || '文件'}${hit.Page ? ` 第 ${hit.Page} 页` : ''}`;
  // The field whose results name this Source, as the descriptor declares it.
  const field = Object.entries(descriptor.fullText?.sources ?? {}).find(([, source]) => source === hit.Source)?.[0];
  return field ? fieldTitle(descriptor, field) : '';
}

/**
 * The article's name, opening the hit: a file's hit is a link to the file (at its page for a PDF),
 * in a new tab like the viewer's file links; any other opens the article as the screen does.
 */
function OpenHit({ hit, selected, onOpen }: { hit: FullTextHit; selected: boolean; onOpen: (hit: FullTextHit) => void }) {
  const name = hitText(hit, 'SaName') || '（无标题）';
  if (hit.Source === 'file' && isFileUrl(hit.FileUrl)) {
    return (
      <MuiLink href={fileHitUrl(hit.FileUrl, hit.FileName, hit.Page)} target="_blank" rel="noopener noreferrer" underline="hover">
        {name}
      </MuiLink>
    );
  }
  return (
    <MuiLink
      component="button"
      type="button"
      underline="hover"
      aria-current={selected ? 'true' : undefined}
      onClick={() => onOpen(hit)}
      sx={{ font: 'inherit', textAlign: 'left', verticalAlign: 'baseline', wordBreak: 'break-all' }}
    >
      {name}
    </MuiLink>
  );
}

export function FullTextResults({
  descriptor,
  search,
  text,
  placeOf,
  onOpen,
  selected,
}: {
  descriptor: ResourceDescriptor;
  search: FullTextSearch;
  /** The text searched, for the empty state. */
  text: string;
  /** The category's name (its path) of a hit's ScCode. */
  placeOf: (code: string) => string;
  onOpen: (hit: FullTextHit) => void;
  /** The hit shown beside the results, if any. */
  selected?: FullTextHit | null | undefined;
}) {
  if (search.isError) {
    const message = search.error instanceof Error ? search.error.message : '';
    return (
      <Box sx={{ p: 2 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void search.refetch()}>
              重试
            </Button>
          }
        >
          搜索失败{message ? `：${message}` : ''}
        </Alert>
      </Box>
    );
  }
  if (search.isPending || !search.data) return <ListLoading />;
  if (search.data.hits.length === 0) return <ListEmpty text={`未找到包含“${text}”的文档`} />;
  const selectedKey = selected ? hitKey(selected) : undefined;
  return (
    <Box component="ul" aria-label="全文搜索结果" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {search.data.hits.map((hit) => {
        const key = hitKey(hit);
        return (
          <Box
            component="li"
            key={key}
            sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider', ...(key === selectedKey ? { bgcolor: 'action.selected' } : {}) }}
          >
            <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, wordBreak: 'break-all' }}>
              <OpenHit hit={hit} selected={key === selectedKey} onOpen={onOpen} />
              {hitText(hit, 'SaCodeName') ? (
                <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                  {hitText(hit, 'SaCodeName')}
                </Typography>
              ) : null}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              所在分类：{placeOf(hitText(hit, 'ScCode'))}
              <Box component="span" sx={{ ml: 2 }}>
                来源：{sourceText(descriptor, hit)}
              </Box>
            </Typography>
            <Snippet text={hit.Snippet} highlights={hit.Highlights} />
          </Box>
        );
      })}
    </Box>
  );
}

/** 共 N 条 (1000+ past the server's count) and the pages of the results. */
export function FullTextPager({ search }: { search: FullTextSearch }) {
  if (!search.data || search.data.hits.length === 0) return null;
  const { total, totalCapped } = search.data;
  const count = Math.max(1, Math.ceil(total / search.pageSize));
  return (
    <Box component="nav" aria-label="分页" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', flexWrap: 'wrap', gap: 2, px: 2, py: 1 }}>
      <Typography variant="body2" color="text.secondary">
        共 {totalText(total, totalCapped)} 条
      </Typography>
      <Pagination
        count={count}
        page={Math.min(search.page, count)}
        onChange={(_event, value) => search.setPage(value)}
        shape="rounded"
        color="primary"
        size="small"
        getItemAriaLabel={pageAriaLabel}
      />
    </Box>
  );
}
