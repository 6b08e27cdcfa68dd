// react-admin's own list query (useGetList: its cache key and what it keeps), for fetching a list
// into the cache before a component asks for it: the next page of a list (ZhPagination) and a
// screen's first lists on the server (src/ssr/render.tsx). Kept in one place so that both stay
// exactly what useGetList would ask for and find.
import type { DataProvider, GetListParams } from 'react-admin';

export type ListQueryParams = Pick<GetListParams, 'pagination' | 'sort' | 'filter' | 'meta'>;

export function getListQuery(dataProvider: DataProvider, resource: string, params: ListQueryParams) {
  const { pagination, sort, filter, meta } = params;
  return {
    queryKey: [resource, 'getList', { pagination, sort, filter, meta }] as const,
    queryFn: ({ signal }: { signal?: AbortSignal }) =>
      dataProvider
        .getList(resource, { pagination, sort, filter, meta, signal: dataProvider.supportAbortSignal === true ? signal : undefined })
        .then(({ data, total, pageInfo, meta: answerMeta }) => ({ data, total, pageInfo, meta: answerMeta })),
  };
}
