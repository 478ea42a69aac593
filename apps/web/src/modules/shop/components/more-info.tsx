/**
 * The item's "More information" section: HTML the orders service has already sanitised, so it goes in as it is.
 * Nothing at all when the item has none.
 */
export function MoreInfo({ html }: { html: string }) {
  if (!html.trim()) return null;
  return (
    <section aria-labelledby="more-info-title">
      <h2 id="more-info-title" className="item-page__subtitle">
        More information
      </h2>
      <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  );
}
