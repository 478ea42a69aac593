import { Container } from '@digicard/ui';
import { MessageForm } from '../modules/enquiries/components/message-form';
import { usePageMeta } from '../modules/site/hooks/use-page-meta';
import { useSiteConfig } from '../modules/site/hooks/use-site-config';
import { mailtoLink, whatsappLink } from '../modules/site/utils/site-config';

export function ContactPage() {
  usePageMeta('Contact', 'Leave your details and a short message, or chat to us on WhatsApp or by email.');
  const config = useSiteConfig();
  return (
    <Container className="page contact-page">
      <div className="contact-page__form">
        <h1 id="contact-title" className="page__title">
          Let us contact you
        </h1>
        <p className="page__lead">Leave your details and a short message, and we will get back to you.</p>
        <MessageForm labelledBy="contact-title" />
      </div>
      <aside className="contact-page__direct" aria-labelledby="contact-direct-title">
        <h2 id="contact-direct-title" className="contact-page__direct-title">
          Prefer to reach us directly?
        </h2>
        <ul className="contact-links">
          <li>
            <a
              href={whatsappLink(config)}
              className="contact-links__link contact-links__link--whatsapp"
              target="_blank"
              rel="noopener noreferrer"
            >
              Chat to us on WhatsApp
            </a>
          </li>
          <li>
            <span>Email us at</span>
            <a href={mailtoLink(config)} className="contact-links__link contact-links__link--email">
              {config.salesEmail}
            </a>
          </li>
        </ul>
      </aside>
    </Container>
  );
}
