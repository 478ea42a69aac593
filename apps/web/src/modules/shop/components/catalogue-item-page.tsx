import type { CatalogueItem, CatalogueKind } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { usePageMeta } from '../../site/hooks/use-page-meta';
import { useCatalogue } from '../hooks/use-catalogue';
import { findItem } from '../utils/catalogue';
import { CardNotFound, CARD_NOT_FOUND } from './card-not-found';
import { CatalogueStatus } from './catalogue-status';

interface CatalogueItemPageProps {
  kind: CatalogueKind;
  /** The page's title while the catalogue loads or when it failed ("Accessories", "Specials"). */
  sectionTitle: string;
  /** The description until the item is known. */
  description: string;
  children: (item: CatalogueItem) => ReactNode;
}

/** The frame of `/accessories/:id` and `/specials/:id`: loading, failure, "Card not found", or the item. */
export function CatalogueItemPage({ kind, sectionTitle, description, children }: CatalogueItemPageProps) {
  const { id } = useParams();
  const catalogue = useCatalogue();
  const item = catalogue.status === 'loaded' ? findItem(catalogue.items, kind, id) : undefined;
  usePageMeta(item?.name ?? (catalogue.status === 'loaded' ? CARD_NOT_FOUND : sectionTitle), item?.heading ?? description);
  if (catalogue.status !== 'loaded') {
    return (
      <Container className="page">
        {catalogue.status === 'failed' ? <h1 className="page__title">{sectionTitle}</h1> : null}
        <CatalogueStatus state={catalogue} />
      </Container>
    );
  }
  return item ? children(item) : <CardNotFound />;
}
