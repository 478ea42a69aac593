import { WebRoutes } from '@digicard/contracts';
import { Container } from '@digicard/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';
import { useSiteConfig } from '../modules/site/hooks/use-site-config';
import { mailtoLink } from '../modules/site/utils/site-config';

/** The date these terms took effect (product spec, section 9). */
export const TERMS_EFFECTIVE_DATE = '1 January 2024';

interface TermsSection {
  readonly id: string;
  readonly title: string;
  readonly body: ReactNode;
}

/**
 * /terms-and-conditions: our Terms of Use, one heading per section with a contents list. A long page few visitors
 * open, so the router loads it on demand (its own chunk, not part of the home page's bundle).
 */
export function TermsPage() {
  const config = useSiteConfig();
  const { brandName } = config;
  usePageMeta(
    'Terms and Conditions',
    `The terms of use of ${brandName}: accounts, memberships and payment, cancellations, liability, privacy and the law that applies.`,
  );

  const sections: readonly TermsSection[] = [
    {
      id: 'about',
      title: 'About these terms',
      body: (
        <>
          <p>
            These terms apply to everyone who uses the {brandName} website, digital business profiles, NFC cards and related services (“the
            service”). “We”, “us” and “our” mean {brandName}; “you” means the person using the service or holding an account.
          </p>
          <p>By creating an account, ordering a card or using the service, you agree to these terms.</p>
        </>
      ),
    },
    {
      id: 'account',
      title: 'Your account',
      body: (
        <>
          <p>
            You are responsible for all activity on your account, including what team members you add do with their profiles. Keep your
            password safe and do not share it. If you think someone else has used your account, change your password at once and tell us.
          </p>
          <p>Give us correct details and keep them up to date, so that we can reach you about your account and orders.</p>
        </>
      ),
    },
    {
      id: 'minors',
      title: 'Users under 18',
      body: (
        <p>
          If you are under 18, you may use the service only with the approval of a parent or guardian, who accepts these terms on your
          behalf and is responsible for your use of the service.
        </p>
      ),
    },
    {
      id: 'use',
      title: 'Using the service fairly',
      body: (
        <>
          <p>Your profile is public once you share it. Do not use the service to:</p>
          <ul>
            <li>publish content that is unlawful, defamatory, hateful, misleading or that you have no right to use;</li>
            <li>send spam, collect other people’s information without their consent, or impersonate anyone;</li>
            <li>break, overload or get around the security of the service.</li>
          </ul>
          <p>
            You keep the rights to the content you publish. You allow us to store, show and copy it as far as we need to run the service,
            for example to show your profile to the people you share it with.
          </p>
        </>
      ),
    },
    {
      id: 'payment',
      title: 'Memberships and payment',
      body: (
        <>
          <p>
            Paid services are priced and paid in South African rand (ZAR). The DigiShare membership is free; paid memberships (such as
            DigiSilver and DigiGold) are billed monthly and renew every month until you cancel.
          </p>
          <p>
            A trial or an included period, such as the 12 months of DigiGold that come with some card specials, renews automatically as a
            paid monthly membership when it ends, unless you cancel before the end of that period.
          </p>
          <p>Card prices do not include the monthly membership fees.</p>
        </>
      ),
    },
    {
      id: 'refunds',
      title: 'Cancellations, refunds and price changes',
      body: (
        <>
          <p>
            You may cancel a membership at any time; it stays active until the end of the month you have paid for. We do not refund partial
            months.
          </p>
          <p>
            Prices may change. If a price drops after you have paid, we do not refund the difference (there is no price protection). We tell
            you before a price rise applies to your membership.
          </p>
          <p>
            Cards are printed to order: we email you a print proof, and we print only after you approve it. Your rights under the Consumer
            Protection Act, for example for a faulty card, are not affected.
          </p>
        </>
      ),
    },
    {
      id: 'suspension',
      title: 'Suspension and termination',
      body: (
        <p>
          We may suspend or close an account at our discretion, for example for misuse of the service, unlawful content or non-payment.
          Where we can, we tell you first and give you a chance to put things right. You may close your account at any time.
        </p>
      ),
    },
    {
      id: 'privacy',
      title: 'Your personal information (POPIA)',
      body: (
        <>
          <p>
            We process personal information in line with the Protection of Personal Information Act, 2013 (POPIA), and only to provide the
            service: to run your account and profile, deliver your orders, take payments and answer your messages. We do not sell your
            personal information.
          </p>
          <p>
            As a profile owner you may download a copy of your data or ask us to delete it. People who leave their details on your profile
            share them with you; you are responsible for how you use them.
          </p>
        </>
      ),
    },
    {
      id: 'liability',
      title: 'Limitation of liability',
      body: (
        <p>
          We work to keep the service available and correct, but we cannot promise that it will always be uninterrupted or free of errors.
          As far as the law allows, our total liability to you for any claim about the service is limited to ZAR 200.00.
        </p>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to these terms',
      body: (
        <p>
          We may update these terms. When a change matters to you, we let you know by email or on the website before it applies. If you keep
          using the service after that, the new terms apply.
        </p>
      ),
    },
    {
      id: 'law',
      title: 'Governing law',
      body: <p>The law of South Africa governs these terms, and the courts of South Africa decide any dispute about them.</p>,
    },
    {
      id: 'contact',
      title: 'Contact us',
      body: (
        <p>
          Questions about these terms? Email us at <a href={mailtoLink(config)}>{config.salesEmail}</a> or use our{' '}
          <Link to={WebRoutes.contact}>contact page</Link>.
        </p>
      ),
    },
  ];

  return (
    <Container className="page terms-page">
      <h1 className="page__title">Terms and Conditions</h1>
      <p className="page__lead">{`${brandName} Terms of Use. Effective ${TERMS_EFFECTIVE_DATE}.`}</p>
      <nav className="terms-page__contents" aria-labelledby="terms-contents-title">
        <h2 id="terms-contents-title" className="terms-page__contents-title">
          Contents
        </h2>
        <ol>
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#terms-${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="prose">
        {sections.map((section, index) => (
          <section key={section.id} id={`terms-${section.id}`} aria-labelledby={`terms-${section.id}-title`}>
            <h2 id={`terms-${section.id}-title`}>{`${index + 1}. ${section.title}`}</h2>
            {section.body}
          </section>
        ))}
      </div>
    </Container>
  );
}
