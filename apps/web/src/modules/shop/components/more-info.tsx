/** The item's "more info" text: HTML the orders service has already sanitised, so it goes in as it is. */
export function MoreInfo({ html }: { html: string }) {
  if (!html.trim()) return null;
  return <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />;
}
