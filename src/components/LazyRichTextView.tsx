import { Suspense } from 'react';
import { ListLoading } from './ListStates';
import { lazyPart } from './lazyPart';

/** RichTextView with DOMPurify, fetched when rich text is first shown (a preview, an answer). */
const RichText = lazyPart('RichTextView', () => import('./RichTextView').then((m) => m.RichTextView));

/** For a screen that shows rich text at once (统一口径's answer): its code downloads with the screen's. */
export const preloadRichTextView = (): void => void RichText.preload().catch(() => undefined);

export function LazyRichTextView({ html }: { html: string }) {
  return (
    <Suspense fallback={<ListLoading />}>
      <RichText html={html} />
    </Suspense>
  );
}
