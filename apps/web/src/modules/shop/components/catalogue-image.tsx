/** Card images are drawn on an 85.6:54 (bank card) canvas; the width and height keep their room while they load. */
export const CARD_IMAGE_WIDTH = 856;
export const CARD_IMAGE_HEIGHT = 540;

interface CatalogueImageProps {
  src: string;
  alt: string;
  className?: string;
  /** Above the fold: loaded at once. Otherwise the browser loads it when it comes near the screen. */
  priority?: boolean;
}

/** One card image of the catalogue, with its size, its alt text and lazy loading below the fold. */
export function CatalogueImage({ src, alt, className, priority = false }: CatalogueImageProps) {
  return (
    <img
      className={className}
      src={src}
      alt={alt}
      width={CARD_IMAGE_WIDTH}
      height={CARD_IMAGE_HEIGHT}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={priority ? 'high' : undefined}
    />
  );
}
