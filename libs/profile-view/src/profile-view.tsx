import { useState, type CSSProperties, type FormEvent, type ReactNode } from 'react';
import { leadConsentText, ProfileDefaults, type LeadSubmission, type PublicProfile } from '@digicard/contracts';
import { bounded, colour, readableOn } from './colours.js';
import { safeHref } from './safe-url.js';
import { SocialBadges, isSocialPlatform } from './social.js';
import { videoView } from './video.js';
import { shareLinks, ShareTexts } from './share.js';

export interface ProfileViewUrls {
  /** Save to Contact: the vCard download, e.g. `/api/profiles/{username}/vcard`. */
  vcard: string;
  /** Where the three forms post, e.g. `/api/profiles/{username}/leads`. */
  leads: string;
  /** The sign-up page, linked from the Get your own Profile panel. */
  register: string;
  /** The click beacon (`/api/profiles/{username}/clicks`); the page counts no clicks without it. */
  clicks?: string;
}

export type ProfileViewMode = 'public' | 'preview';

export interface ProfileViewProps {
  profile: PublicProfile;
  brandName: string;
  siteUrl: string;
  urls: ProfileViewUrls;
  /** `public`: rendered on the server, every panel closed, the page script toggles. `preview`: React state toggles. */
  mode: ProfileViewMode;
}

export type LeadKind = LeadSubmission['kind'];
type PanelKey = 'exchange' | 'ownProfile' | 'about' | 'lead';

/** The ids the toggle buttons' `aria-controls` point at (one profile per page). */
export const PanelIds: Record<PanelKey, string> = {
  exchange: 'pv-exchange',
  ownProfile: 'pv-own-profile',
  about: 'pv-about',
  lead: 'pv-lead',
};

/** The texts a visitor sees (spec section 2). */
export const ProfileTexts = {
  saveToContact: 'Save to Contact',
  exchangeContact: 'Exchange Contact',
  getYourOwnProfile: 'Get your own Profile',
  aboutMe: 'About Me',
  leadForm: 'Let me get in contact with you.',
  watchVideo: 'Watch my video',
  gallery: 'My Gallery',
  products: 'Products',
  send: 'Send',
  newTab: '(opens in a new tab)',
  /** Exchange Contact: the visitor asks for the owner's card by email (ticked unless they untick it). */
  sendCard: (ownerName: string) => `Send me ${ownerName}'s contact card`,
} as const;

/** The header is as tall as the profile image plus 20 px (spec section 2). */
export const headerHeight = (profileImageHeight: number): number => bounded(profileImageHeight, 0, 400, 180) + 20;

const NEW_TAB = { target: '_blank', rel: 'noopener noreferrer' } as const;

function NewTabNote() {
  return <span className="pv-sr"> {ProfileTexts.newTab}</span>;
}

interface FieldSpec {
  name: 'firstName' | 'lastName' | 'email' | 'phone' | 'message';
  label: string;
  type?: 'email' | 'tel';
  autoComplete: string;
  required?: boolean;
  maxLength: number;
}

const FIELD: Record<FieldSpec['name'], FieldSpec> = {
  firstName: { name: 'firstName', label: 'First name', autoComplete: 'given-name', required: true, maxLength: 120 },
  lastName: { name: 'lastName', label: 'Last name', autoComplete: 'family-name', maxLength: 120 },
  email: { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', required: true, maxLength: 254 },
  phone: { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel', maxLength: 16 },
  message: { name: 'message', label: 'Message', autoComplete: 'off', maxLength: 2000 },
};

const FORM_FIELDS: Record<LeadKind, FieldSpec[]> = {
  lead: [FIELD.firstName, FIELD.lastName, FIELD.email, FIELD.phone, FIELD.message],
  exchange: [FIELD.firstName, FIELD.lastName, FIELD.phone, FIELD.email],
  'own-profile': [FIELD.firstName, FIELD.lastName, FIELD.email],
};

interface LeadFormProps {
  kind: LeadKind;
  label: string;
  action: string;
  ownerName: string;
  sendStyle: CSSProperties;
  preview: boolean;
}

const stopInPreview = (event: FormEvent<HTMLFormElement>) => event.preventDefault();

/** One of the three visitor forms; field names are LeadSubmissionSchema's. The page script sends it as JSON. */
function LeadForm({ kind, label, action, ownerName, sendStyle, preview }: LeadFormProps) {
  const id = (name: string) => `pv-${kind}-${name}`;
  return (
    <form
      className="pv-form"
      data-lead-kind={kind}
      action={action}
      method="post"
      noValidate
      aria-label={label}
      onSubmit={preview ? stopInPreview : undefined}
    >
      {FORM_FIELDS[kind].map((field) => (
        <div className="pv-field" key={field.name}>
          <label htmlFor={id(field.name)}>
            {field.label}
            {field.required ? <span aria-hidden="true"> *</span> : null}
          </label>
          {field.name === 'message' ? (
            <textarea id={id(field.name)} name={field.name} rows={4} maxLength={field.maxLength} />
          ) : (
            <input
              id={id(field.name)}
              name={field.name}
              type={field.type ?? 'text'}
              autoComplete={field.autoComplete}
              inputMode={field.type === 'tel' ? 'tel' : undefined}
              required={field.required}
              maxLength={field.maxLength}
            />
          )}
        </div>
      ))}
      {kind === 'exchange' ? (
        <div className="pv-field pv-check">
          <input id={id('sendCard')} name="sendCard" type="checkbox" value="true" defaultChecked />
          <label htmlFor={id('sendCard')}>{ProfileTexts.sendCard(ownerName)}</label>
        </div>
      ) : null}
      <div className="pv-field pv-check">
        <input id={id('consent')} name="consent" type="checkbox" value="true" required />
        <label htmlFor={id('consent')}>{leadConsentText(ownerName)}</label>
      </div>
      <div className="pv-hp" aria-hidden="true">
        <label htmlFor={id('website')}>Leave this field empty</label>
        <input id={id('website')} name="website" type="text" tabIndex={-1} autoComplete="off" aria-hidden="true" />
      </div>
      <button type="submit" className="pv-send" style={sendStyle}>
        {ProfileTexts.send}
      </button>
    </form>
  );
}

interface ToggleProps {
  panel: PanelKey;
  open: boolean;
  group?: string;
  style: CSSProperties;
  onToggle: ((panel: PanelKey) => void) | undefined;
  children: ReactNode;
}

/** A disclosure button: `aria-expanded` + `aria-controls`; the page script finds it by `data-pv-toggle`. */
function Toggle({ panel, open, group, style, onToggle, children }: ToggleProps) {
  return (
    <button
      type="button"
      className="pv-btn pv-toggle"
      style={style}
      aria-expanded={open}
      aria-controls={PanelIds[panel]}
      data-pv-toggle=""
      data-pv-group={group}
      onClick={onToggle ? () => onToggle(panel) : undefined}
    >
      {children}
    </button>
  );
}

const CLOSED: Record<PanelKey, boolean> = { exchange: false, ownProfile: false, about: false, lead: false };

/**
 * A profile as visitors see it (spec section 2): the dashboard's live preview (`mode: 'preview'`) and the public
 * page, rendered to HTML on the server (`mode: 'public'`, see `renderProfilePage`). Styles: `profileCss`.
 */
export function ProfileView({ profile, brandName, siteUrl, urls, mode }: ProfileViewProps) {
  const [open, setOpen] = useState<Record<PanelKey, boolean>>(CLOSED);
  const preview = mode === 'preview';
  const toggle = preview
    ? (panel: PanelKey) =>
        setOpen((current) => {
          const next = { ...current, [panel]: !current[panel] };
          if (next[panel] && panel === 'exchange') next.ownProfile = false;
          if (next[panel] && panel === 'ownProfile') next.exchange = false;
          return next;
        })
    : undefined;
  const isOpen = (panel: PanelKey) => preview && open[panel];

  const d = profile.document;
  const D = ProfileDefaults;
  const name = `${profile.firstName} ${profile.lastName}`.trim() || profile.username;
  const ownerFirstName = profile.firstName.trim() || name;
  const imageHeight = bounded(d.profileImageHeight, 0, 400, D.profileImageHeight);
  const height = headerHeight(imageHeight);
  const cover = safeHref(d.profileBackground);
  const avatar = safeHref(d.profileImage);
  const logo = safeHref(d.businessLogo);
  const vcard = safeHref(urls.vcard);
  const leadsUrl = safeHref(urls.leads) ?? '';
  const register = safeHref(urls.register);
  const home = safeHref(siteUrl);

  const background = colour(d.profileBackgroundColor, D.profileBackgroundColor);
  const buttonStyle: CSSProperties = {
    backgroundColor: colour(d.buttonBackgroundColor, D.buttonBackgroundColor),
    color: colour(d.buttonFontColor, D.buttonFontColor),
    borderColor: colour(d.buttonBorderColor, D.buttonBorderColor),
    borderWidth: bounded(d.buttonBorderWidth, 0, 10, D.buttonBorderWidth),
  };
  const formsBackground = colour(d.dropdownFormsBackground, D.dropdownFormsBackground);
  const formsStyle: CSSProperties = { backgroundColor: formsBackground, color: readableOn(formsBackground) };
  const sendStyle: CSSProperties = {
    backgroundColor: colour(d.sendBtnBackgroundColor, D.sendBtnBackgroundColor),
    color: colour(d.sendBtnFontColor, D.sendBtnFontColor),
  };
  const formProps = { action: leadsUrl, ownerName: ownerFirstName, sendStyle, preview };

  const websites = d.websiteLinks.flatMap((link) => {
    const href = safeHref(link.url);
    const label = link.buttonName.trim();
    return href && label ? [{ href, label }] : [];
  });
  const socials = profile.features.socialLinks
    ? d.socialLinks.flatMap((link) => {
        const href = safeHref(link.url);
        return href && isSocialPlatform(link.platform) ? [{ href, platform: link.platform, ...SocialBadges[link.platform] }] : [];
      })
    : [];
  const video = profile.features.video ? videoView(d.videoLink) : undefined;
  const gallery = profile.features.gallery ? d.gallery.flatMap((item) => safeHref(item.imageUrl) ?? []) : [];
  const products = profile.features.products
    ? d.products.flatMap((product) => {
        const href = safeHref(product.link);
        return href && product.name.trim() ? [{ href, name: product.name.trim(), image: safeHref(product.imageUrl) }] : [];
      })
    : [];
  const bio = d.profileBio.trim();
  const share = profile.features.shareContact ? shareLinks(name, `${siteUrl.replace(/\/+$/, '')}/${profile.username}`) : null;

  return (
    <article className="pv" style={{ backgroundColor: background, color: colour(d.mainFontColor, D.mainFontColor) }}>
      <header className="pv-header" style={{ height, backgroundColor: background }} data-header-height={height}>
        {cover ? <img className="pv-cover" src={cover} alt="" style={{ opacity: bounded(d.opacityValue, 0, 1, D.opacityValue) }} /> : null}
        {avatar && imageHeight > 0 ? (
          <img
            className="pv-avatar"
            src={avatar}
            alt={`Photo of ${name}`}
            style={{ width: `${bounded(d.profileImageWidth, 0, 100, D.profileImageWidth)}%`, height: imageHeight }}
          />
        ) : null}
      </header>

      <div className="pv-intro">
        <h1 className="pv-name">{name}</h1>
        {d.title.trim() ? <p className="pv-title">{d.title}</p> : null}
        {logo ? (
          <img
            className="pv-logo"
            src={logo}
            alt={d.businessName.trim() ? '' : 'Business logo'}
            style={{ width: `${bounded(d.businessLogoWidth, 0, 100, D.businessLogoWidth)}%` }}
          />
        ) : null}
        {d.businessName.trim() ? <p className="pv-business">{d.businessName}</p> : null}
      </div>

      <div className="pv-actions">
        {vcard ? (
          <a className="pv-btn" href={vcard} download style={buttonStyle}>
            {ProfileTexts.saveToContact}
          </a>
        ) : null}
        <Toggle panel="exchange" open={isOpen('exchange')} group="contact" style={buttonStyle} onToggle={toggle}>
          {ProfileTexts.exchangeContact}
        </Toggle>
        <div id={PanelIds.exchange} className="pv-panel" style={formsStyle} hidden={!isOpen('exchange')}>
          <p className="pv-note">Send {ownerFirstName} your contact details.</p>
          <LeadForm kind="exchange" label={ProfileTexts.exchangeContact} {...formProps} />
        </div>
        <Toggle panel="ownProfile" open={isOpen('ownProfile')} group="contact" style={buttonStyle} onToggle={toggle}>
          {ProfileTexts.getYourOwnProfile}
        </Toggle>
        <div id={PanelIds.ownProfile} className="pv-panel" style={formsStyle} hidden={!isOpen('ownProfile')}>
          <p className="pv-note">Leave your details and {ownerFirstName} will help you get your own digital business card.</p>
          <LeadForm kind="own-profile" label={ProfileTexts.getYourOwnProfile} {...formProps} />
          {register ? (
            <p className="pv-note">
              Or <a href={register}>sign up for your own {brandName} profile</a> now.
            </p>
          ) : null}
        </div>
        {bio ? (
          <>
            <Toggle panel="about" open={isOpen('about')} style={buttonStyle} onToggle={toggle}>
              {ProfileTexts.aboutMe}
            </Toggle>
            <div
              id={PanelIds.about}
              className="pv-panel pv-bio"
              style={{
                backgroundColor: colour(d.profileBioBackground, D.profileBioBackground),
                color: colour(d.profileBioFont, D.profileBioFont),
              }}
              hidden={!isOpen('about')}
            >
              {bio}
            </div>
          </>
        ) : null}
      </div>

      {websites.length > 0 ? (
        <div className="pv-links">
          {websites.map((link, index) => (
            <a key={index} className="pv-btn" href={link.href} {...NEW_TAB} style={buttonStyle} data-pv-click={`website:${index}`}>
              {link.label}
              <NewTabNote />
            </a>
          ))}
        </div>
      ) : null}

      {socials.length > 0 ? (
        <ul className="pv-social" aria-label="Social media">
          {socials.map((link, index) => (
            <li key={index}>
              <a
                href={link.href}
                {...NEW_TAB}
                aria-label={link.label}
                title={link.label}
                data-pv-click={`social:${link.platform}`}
                style={{ backgroundColor: link.colour, color: readableOn(link.colour) }}
              >
                <span aria-hidden="true">{link.badge}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}

      {share ? (
        <div className="pv-links pv-share" role="group" aria-label="Share this profile">
          <a className="pv-btn" href={share.whatsapp} {...NEW_TAB} style={buttonStyle} data-pv-click="share:wa">
            {ShareTexts.whatsapp}
            <NewTabNote />
          </a>
          <a className="pv-btn" href={share.email} style={buttonStyle} data-pv-click="share:email">
            {ShareTexts.email}
          </a>
          <button
            type="button"
            className="pv-btn"
            style={buttonStyle}
            data-pv-click="share:native"
            data-pv-share={share.url}
            data-pv-title={share.title}
            hidden
          >
            {ShareTexts.native}
          </button>
        </div>
      ) : null}

      {video ? (
        <div className="pv-section pv-video">
          {video.kind === 'embed' ? (
            <iframe
              src={video.src}
              title="Video"
              loading="lazy"
              width={560}
              height={315}
              allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
              referrerPolicy="strict-origin-when-cross-origin"
            />
          ) : (
            <a className="pv-btn" href={video.href} {...NEW_TAB} style={buttonStyle}>
              {ProfileTexts.watchVideo}
              <NewTabNote />
            </a>
          )}
        </div>
      ) : null}

      {gallery.length > 0 ? (
        <section className="pv-section" aria-labelledby="pv-gallery-title">
          <h2 id="pv-gallery-title">{ProfileTexts.gallery}</h2>
          <ul className="pv-gallery">
            {gallery.map((src, index) => (
              <li key={index}>
                <a href={src} {...NEW_TAB}>
                  <img
                    src={src}
                    alt={`Gallery image ${index + 1} of ${gallery.length}`}
                    loading="lazy"
                    decoding="async"
                    width={400}
                    height={300}
                  />
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {products.length > 0 ? (
        <section className="pv-section" aria-labelledby="pv-products-title">
          <h2 id="pv-products-title">{ProfileTexts.products}</h2>
          <ul className="pv-products">
            {products.map((product, index) => (
              <li key={index} className="pv-product">
                <a href={product.href} {...NEW_TAB}>
                  {product.image ? (
                    <img src={product.image} alt="" loading="lazy" decoding="async" width={400} height={300} />
                  ) : (
                    <span className="pv-product-blank" aria-hidden="true" />
                  )}
                  <span className="pv-product-name">{product.name}</span>
                  <NewTabNote />
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {profile.features.leadForm ? (
        <div className="pv-section pv-lead">
          <Toggle panel="lead" open={isOpen('lead')} style={buttonStyle} onToggle={toggle}>
            {ProfileTexts.leadForm}
          </Toggle>
          <div id={PanelIds.lead} className="pv-panel" style={formsStyle} hidden={!isOpen('lead')}>
            <LeadForm kind="lead" label={ProfileTexts.leadForm} {...formProps} />
          </div>
        </div>
      ) : null}

      <footer className="pv-footer">{home ? <a href={home}>Powered By {brandName}</a> : <span>Powered By {brandName}</span>}</footer>
    </article>
  );
}
