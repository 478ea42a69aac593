import type { CatalogueItem } from '@digicard/contracts';
import { useState } from 'react';
import { CatalogueImage } from './catalogue-image';

/**
 * A main image and, when there is more than one, a row of thumbnails: each a button ("Show image 2 of 3", pressed
 * when it is the one shown) that puts its image in the main place.
 */
export function ImageGallery({ images }: { images: CatalogueItem['images'] }) {
  const [current, setCurrent] = useState(0);
  const shown = images[current] ?? images[0];
  if (!shown) return null;
  return (
    <div className="gallery">
      <CatalogueImage className="gallery__main" src={shown.image} alt={shown.alt} priority />
      {images.length > 1 ? (
        <ul className="gallery__thumbs" aria-label="More images">
          {images.map((image, index) => (
            <li key={`${index}-${image.image}`}>
              <button
                type="button"
                className="gallery__thumb"
                aria-label={`Show image ${index + 1} of ${images.length}`}
                aria-pressed={index === current}
                onClick={() => setCurrent(index)}
              >
                <CatalogueImage className="gallery__thumb-image" src={image.image} alt={image.alt} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
