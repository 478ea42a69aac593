import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { Link } from 'react-router';
import { QuoteForm } from '../modules/enquiries/components/quote-form';
import { PackageList } from '../modules/packages/components/package-list';
import { CatalogueStatus } from '../modules/shop/components/catalogue-status';
import { useCatalogue } from '../modules/shop/hooks/use-catalogue';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';
import { SpecialsGrid } from '../modules/specials/components/specials-grid';

/** /pricing: the specials (prices from the catalogue) and the four membership packages. */
export function PricingPage() {
  usePageMeta(
    'Packages',
    'Membership packages from free DigiShare to DigiPlatinum, and NFC business card specials, some with 12 months of DigiGold.',
  );
  const catalogue = useCatalogue();
  return (
    <>
      <Container className="page pricing-page">
        <h1 className="page__title">Packages</h1>
        <p className="page__lead">
          Start with a free digital profile and upgrade when you need more. Add an NFC card to share it with a tap.
        </p>
      </Container>

      <section className="section section--flush-top" aria-labelledby="pricing-specials-title">
        <Container>
          <h2 id="pricing-specials-title" className="section__title">
            Specials
          </h2>
          <p className="section__lead">A printed NFC business card at a special price, some with a year of DigiGold.</p>
          {catalogue.status === 'failed' ? <CatalogueStatus state={catalogue} /> : null}
          <SpecialsGrid />
        </Container>
      </section>

      <section className="section section--tinted" aria-labelledby="pricing-plans-title">
        <Container>
          <h2 id="pricing-plans-title" className="section__title">
            Membership packages
          </h2>
          <p className="section__lead">Every package includes everything in the one before it. Cancel any time.</p>
          <PackageList />
          <p className="section__actions">
            <Link to={WebRoutes.register} className="button-link button-link--accent">
              Get Your Digital Profile
            </Link>
          </p>
        </Container>
      </section>

      <section id="quote" className="section" aria-labelledby="pricing-quote-title">
        <Container className="narrow-page">
          <h2 id="pricing-quote-title" className="section__title">
            DigiPlatinum for teams: request a quote
          </h2>
          <p className="section__lead">
            Cards for your whole sales team, managed by their leader, with analytics. Tell us about your team and we will send you a price.
          </p>
          <QuoteForm labelledBy="pricing-quote-title" />
        </Container>
      </section>
    </>
  );
}
