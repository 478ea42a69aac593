import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import { Link } from 'react-router';
import { PackageList } from '../modules/packages/components/package-list';
import { HeroArt } from '../modules/site/components/hero-art';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';
import { useSiteConfig } from '../modules/site/hooks/use-site-config';
import { SpecialsGrid } from '../modules/specials/components/specials-grid';

const benefits = [
  {
    title: 'Share it your way',
    text: 'Send your profile as a link, let people scan your QR code, or tap your NFC card on their phone. Nothing to install for the person you meet.',
  },
  {
    title: 'Save to Contact',
    text: 'One button puts your name, number, email and business details straight into their phone’s contacts, spelt the way you want.',
  },
  {
    title: 'Capture leads',
    text: 'A short form on your profile lets people leave their details for you, so every conversation can turn into business.',
  },
  {
    title: 'Always up to date',
    text: 'Changed your number or your job title? Update your profile once and every card you have handed out shows the new details.',
  },
] as const;

export function HomePage() {
  usePageMeta(
    'Digital Business Cards',
    'Digital business cards for South Africa: share your profile by link, QR code or NFC card tap, let people save your details in one tap, and capture leads.',
  );
  const { brandName } = useSiteConfig();
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <Container className="hero__inner">
          <div className="hero__text">
            <h1 id="hero-title" className="hero__title">
              Your business card, always in your pocket
            </h1>
            <p className="hero__lead">
              A digital business card is a profile page with your contact details, business information, social links and products. Share it
              by link, QR code or a tap of an NFC card, and the people you meet save your details to their phone in one tap.
            </p>
            <p className="hero__actions">
              <Link to={WebRoutes.register} className="button-link button-link--accent">
                Get Your Digital Profile
              </Link>
            </p>
            <p className="hero__note">Start with DigiShare: it is free.</p>
          </div>
          <HeroArt />
        </Container>
      </section>

      <section className="section" aria-labelledby="specials-title">
        <Container>
          <h2 id="specials-title" className="section__title">
            Specials
          </h2>
          <p className="section__lead">An NFC business card: tap it on a phone and your profile opens.</p>
          <SpecialsGrid />
        </Container>
      </section>

      <section className="section section--tinted" aria-labelledby="info-title">
        <Container>
          <h2 id="info-title" className="section__title">
            Why go digital?
          </h2>
          <p className="section__lead">Paper cards get lost, run out and go out of date. A {brandName} profile does not.</p>
          <ul className="benefit-list">
            {benefits.map((benefit) => (
              <li key={benefit.title} className="benefit">
                <h3 className="benefit__title">{benefit.title}</h3>
                <p className="benefit__text">{benefit.text}</p>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section className="section" aria-labelledby="packages-title">
        <Container>
          <h2 id="packages-title" className="section__title">
            Packages
          </h2>
          <p className="section__lead">Start free and upgrade when you need more.</p>
          <PackageList />
          <p className="section__actions">
            <Link to={WebRoutes.register} className="button-link">
              Get Your Digital Profile
            </Link>
          </p>
        </Container>
      </section>
    </>
  );
}
