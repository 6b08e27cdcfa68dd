// @vitest-environment node
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { askedQueries } from './askedQueries';

function Asks({ name, enabled }: { name: string; enabled: boolean }) {
  const { data } = useQuery({ queryKey: ['asked', name], queryFn: () => Promise.resolve(`答复 ${name}`), enabled });
  return <span>{data ?? '…'}</span>;
}

describe('askedQueries (react-query keeps the options a component built its query with)', () => {
  it('finds the enabled queries a server render asked for, and answers them with their own queryFn', async () => {
    const queryClient = new QueryClient();
    const page = (
      <QueryClientProvider client={queryClient}>
        <Asks name="甲" enabled />
        <Asks name="乙" enabled={false} />
      </QueryClientProvider>
    );
    expect(renderToString(page)).not.toContain('答复');
    const asked = askedQueries(queryClient);
    expect(asked.map((q) => q.queryKey)).toEqual([['asked', '甲']]);
    await Promise.all(asked.map((q) => queryClient.prefetchQuery(q)));
    expect(askedQueries(queryClient)).toEqual([]);
    expect(renderToString(page)).toContain('答复 甲');
  });
});
