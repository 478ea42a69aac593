import { Button, FormAlert } from '@digicard/ui';

/**
 * The end of a list read a page at a time: "Load more ..." while there is a next page (nothing once every item
 * shows), "Loading more ..." while it is read, and why it did not load, with the button to try again.
 */
export function LoadMore({
  list,
  hasMore,
  more,
  onLoadMore,
}: {
  /** What the list holds, as the button says it ("Load more leads"). */
  list: string;
  hasMore: boolean;
  more: { loading: boolean; failed: string | null };
  onLoadMore: () => void;
}) {
  if (!hasMore) return null;
  return (
    <div className="pe-actions load-more">
      <FormAlert>{more.failed}</FormAlert>
      <Button variant="secondary" disabled={more.loading} onClick={onLoadMore}>
        {more.loading ? `Loading more ${list}...` : `Load more ${list}`}
      </Button>
    </div>
  );
}
