import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { ResourceDescriptor } from '../../../schemas/descriptor';
import { FULL_TEXT_PAGE_SIZE, type FullTextHit } from '../../../schemas/fullText';
import type { LegacyDataProvider } from '../../dataProvider/index';

/** What is searched: the text, and where (a document type; a category and everything under it). */
export interface FullTextWhere {
  text: string;
  type?: number | undefined;
  /** A category; null or undefined: all of them. */
  scCode?: string | null | undefined;
}

export interface FullTextPage {
  hits: FullTextHit[];
  total: number;
  totalCapped: boolean;
}

function isHit(value: unknown): value is FullTextHit {
  const v = value as Partial<FullTextHit> | null;
  return typeof v === 'object' && v !== null && typeof v.Id === 'number' && typeof v.Snippet === 'string' && typeof v.Source === 'string' && Array.isArray(v.Highlights);
}

/**
 * One page of a full-text search through the descriptor's `fullText.call` (docs/api.md), the page
 * starting again at 1 whenever what is searched changes. Not retried: a refused text (too long)
 * stays refused, and the error state offers 重试.
 */
export function useFullTextSearch(descriptor: ResourceDescriptor, where: FullTextWhere | null) {
  const dataProvider = useDataProvider<LegacyDataProvider>();
  const call = descriptor.fullText?.call;
  const key = where ? JSON.stringify([where.text, where.type ?? null, where.scCode ?? null]) : '';
  const [paged, setPaged] = useState({ key, page: 1 });
  const page = paged.key === key ? paged.page : 1;
  const params = where
    ? {
        Text: where.text,
        ...(where.type !== undefined ? { type: where.type } : {}),
        ...(where.scCode ? { ScCode: where.scCode } : {}),
        PageIndex: page,
        PageSize: FULL_TEXT_PAGE_SIZE,
      }
    : null;
  const query = useQuery({
    queryKey: ['fullText', descriptor.resource, params],
    queryFn: async (): Promise<FullTextPage> => {
      const result = await dataProvider.call<unknown>(descriptor.service, call!, params!);
      const hits = Array.isArray(result.data) ? result.data.filter(isHit) : [];
      return { hits, total: result.total ?? hits.length, totalCapped: result.totalCapped === true };
    },
    enabled: params !== null && call !== undefined,
    retry: false,
  });
  return { ...query, page, pageSize: FULL_TEXT_PAGE_SIZE, setPage: (next: number) => setPaged({ key, page: next }) };
}

export type FullTextSearch = ReturnType<typeof useFullTextSearch>;
