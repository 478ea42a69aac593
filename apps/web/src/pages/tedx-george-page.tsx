import { VisuallyHidden, Container } from '@digicard/ui';
import type { ReactNode } from 'react';
import { TEDX_GEORGE, type PromoSocialPlatform } from '../config/promo/tedx-george';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';
import { useSiteConfig } from '../modules/site/hooks/use-site-config';

const PLATFORM_NAMES: Record<PromoSocialPlatform, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  x: 'X',
};

/** /tedx_george: the promo page of a one-day TEDx conference; its content lives in `config/promo/tedx-george.ts`. */
export function TedxGeorgePage() {
  const event = TEDX_GEORGE;
  // The organisers' invite link is configuration: without one there is no chat button (never a link to nowhere).
  const { tedxGeorgeCommunityUrl } = useSiteConfig();
  usePageMeta(event.title, `${event.title}: a one-day TEDx conference in ${event.city}. Talks, ideas and people worth meeting.`);
  const [firstImage, ...moreImages] = event.images;
  return (
    <>
      <section className="promo-hero" aria-labelledby="promo-title">
        <Container className="promo-hero__inner">
          <div>
            <h1 id="promo-title" className="promo-hero__title">
              {event.title}
            </h1>
            <p className="promo-hero__meta">
              <span className="promo-hero__city">{event.city}</span>
              <span className="promo-hero__date">{event.dateText}</span>
            </p>
            <p className="promo-hero__actions">
              <ExternalLink href={event.websiteUrl} className="button-link button-link--accent">
                Visit the {event.title} website
              </ExternalLink>
            </p>
          </div>
          <img
            className="promo-hero__image"
            src={firstImage.src}
            alt={firstImage.alt}
            width={firstImage.width}
            height={firstImage.height}
            fetchPriority="high"
          />
        </Container>
      </section>

      <Container className="page promo-page">
        <section className="promo-page__intro" aria-labelledby="promo-about-title">
          <h2 id="promo-about-title" className="section__title">
            About the day
          </h2>
          {event.intro.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          <ul className="promo-links">
            <li>
              <ExternalLink href={event.aboutUrl}>About {event.title}</ExternalLink>
            </li>
            <li>
              <ExternalLink href={event.partnersUrl}>Partners and sponsors</ExternalLink>
            </li>
          </ul>
        </section>

        <ul className="promo-gallery" aria-label={`Pictures of ${event.title}`}>
          {moreImages.map((image) => (
            <li key={image.src}>
              <img src={image.src} alt={image.alt} width={image.width} height={image.height} loading="lazy" decoding="async" />
            </li>
          ))}
        </ul>

        <section className="promo-community" aria-labelledby="promo-community-title">
          <h2 id="promo-community-title" className="section__title">
            Join the community
          </h2>
          {tedxGeorgeCommunityUrl ? (
            <>
              <p>Hear first about speakers, tickets and volunteering, and meet other attendees before the day.</p>
              <p>
                <ExternalLink href={tedxGeorgeCommunityUrl} className="button-link">
                  Join the WhatsApp community
                </ExternalLink>
              </p>
            </>
          ) : null}
          <h3 className="promo-community__follow">Follow {event.title}</h3>
          <ul className="promo-social">
            {event.socialLinks.map((link) => (
              <li key={link.platform}>
                <ExternalLink href={link.url} className="promo-social__link">
                  {PLATFORM_NAMES[link.platform]}
                </ExternalLink>
              </li>
            ))}
          </ul>
        </section>
      </Container>
    </>
  );
}

/** A link to another site: opens in a new tab (and says so to screen readers), without giving that tab a handle on this one. */
function ExternalLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  return (
    <a href={href} className={className} target="_blank" rel="noopener noreferrer">
      {children}
      <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
    </a>
  );
}
