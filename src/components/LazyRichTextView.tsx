import { Suspense } from 'react';
import { ListLoading } from './ListStates';
import { lazyPart } from './lazyPart';

/** RichTextView with DOMPurify, fetched when rich text is first shown (a preview, an answer). */
const RichText = lazyPart(() => import('./RichTextView').then((m) => m.RichTextView));

export function LazyRichTextView({ html }: { html: string }) {
  return (
    <Suspense fallback={<ListLoading />}>
      <RichText html={html} />
    </Suspense>
  );
}
