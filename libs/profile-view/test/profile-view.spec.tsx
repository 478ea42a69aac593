import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { LeadThanks, type PublicProfile } from '@digicard/contracts';
import { ProfileView, absoluteUrl, headerHeight, jsonForHtml, profileCss, renderProfilePage, safeHref, videoView } from '../src/index.js';
import { pageOptions, sampleProfile } from './sample-profile.js';

const page = (change?: (profile: PublicProfile) => void): string => {
  const profile = sampleProfile();
  change?.(profile);
  return renderProfilePage(pageOptions(profile));
};

/** The page without its head (whose stylesheet names every class). */
const body = (html: string): string => html.slice(html.indexOf('<body>'));
/** Every start tag of one element type, as text. */
const tags = (html: string, name: string): string[] => html.match(new RegExp(`<${name}\\b[^>]*>`, 'gi')) ?? [];
const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];
const hrefs = (html: string): string[] => tags(html, 'a').map((a) => attr(a, 'href') ?? '');
const metaContent = (html: string, key: string): string | undefined =>
  attr(tags(html, 'meta').find((m) => attr(m, 'property') === key || attr(m, 'name') === key) ?? '', 'content');
const formOf = (html: string, kind: string): string | undefined =>
  new RegExp(`<form[^>]*data-lead-kind="${kind}"[\\s\\S]*?</form>`).exec(html)?.[0];

describe('renderProfilePage: the document', () => {
  const html = page();

  it('is a complete HTML document with the inline stylesheet, the page data and the deferred script', () => {
    assert.ok(html.startsWith('<!doctype html><html lang="en"><head><meta charset="utf-8">'));
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.match(html, /<title>Thabo Mokoena \| DigiCard<\/title>/);
    assert.ok(html.includes(`<style>${profileCss}`));
    assert.match(html, /<script src="\/assets\/profile-page\.js\?v=abc123" defer><\/script>/);
    assert.match(html, /<main><article class="pv"/);
    assert.ok(html.endsWith('</script></body></html>'));
  });

  it('has the description, canonical link, Open Graph and Twitter tags, with an absolute image URL', () => {
    assert.equal(metaContent(html, 'description'), 'Sales Director – Mokoena Solar (Pty) Ltd');
    assert.equal(attr(tags(html, 'link').find((l) => l.includes('canonical')) ?? '', 'href'), 'https://digicard.example.co.za/thabo');
    assert.equal(metaContent(html, 'og:type'), 'profile');
    assert.equal(metaContent(html, 'og:title'), 'Thabo Mokoena');
    assert.equal(metaContent(html, 'og:description'), 'Sales Director – Mokoena Solar (Pty) Ltd');
    assert.equal(metaContent(html, 'og:url'), 'https://digicard.example.co.za/thabo');
    assert.equal(metaContent(html, 'og:image'), 'https://digicard.example.co.za/media/profile_image_0001.webp');
    assert.equal(metaContent(html, 'og:site_name'), 'DigiCard');
    assert.equal(metaContent(html, 'twitter:card'), 'summary');
  });

  it('falls back to the logo for og:image, then to none; and to "Digital business card of …" for the description', () => {
    const logoOnly = page((p) => (p.document.profileImage = ''));
    assert.equal(metaContent(logoOnly, 'og:image'), 'https://digicard.example.co.za/media/business_logo_0001.png');
    const bare = page((p) => {
      p.document.profileImage = '';
      p.document.businessLogo = '';
      p.document.title = '';
      p.document.businessName = '';
    });
    assert.equal(metaContent(bare, 'og:image'), undefined);
    assert.equal(metaContent(bare, 'description'), 'Digital business card of Thabo Mokoena');
  });

  it('puts { leadsUrl, thanks } in the page data, escaped for HTML', () => {
    const block = /<script type="application\/json" id="profile-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
    assert.ok(block);
    assert.ok(!block.includes('<'));
    assert.deepEqual(JSON.parse(block), { leadsUrl: '/api/profiles/thabo/leads', clicksUrl: '', thanks: LeadThanks });
    const escaped = jsonForHtml({ text: '</script><script>alert(1)</script>&\u2028' });
    assert.ok(!/[<>&\u2028]/.test(escaped));
    assert.ok(escaped.includes('\\u003c/script\\u003e'));
    assert.deepEqual(JSON.parse(escaped), { text: '</script><script>alert(1)</script>&\u2028' });
  });

  it('shows an optional notice above the card, escaped', () => {
    assert.ok(!html.includes('pv-notice">'));
    const withNotice = renderProfilePage({ ...pageOptions(), notice: 'Only you can see this page <b>yet</b>.' });
    assert.match(withNotice, /<main><p class="pv-notice">Only you can see this page &lt;b&gt;yet&lt;\/b&gt;\.<\/p><article class="pv"/);
  });

  it('moves React’s image preloads into the head', () => {
    const [head, body] = html.split('</head>');
    assert.match(head!, /<link rel="preload" as="image" href="\/media\/profile_image_0001\.webp"\/>/);
    assert.ok(!body!.includes('rel="preload"'));
  });
});

describe('ProfileView: what shows and what does not', () => {
  it('makes the header the profile image height plus 20 px', () => {
    const header = tags(page(), 'header')[0]!;
    assert.equal(attr(header, 'data-header-height'), '170');
    assert.match(header, /height:170px/);
    assert.equal(
      attr(
        tags(
          page((p) => (p.document.profileImageHeight = 400)),
          'header',
        )[0]!,
        'data-header-height',
      ),
      '420',
    );
    assert.equal(headerHeight(180), 200);
    assert.equal(headerHeight(0), 20);
    const avatar = tags(page(), 'img').find((i) => i.includes('pv-avatar'))!;
    assert.match(avatar, /width:40%;height:150px/);
    assert.match(
      tags(page(), 'img').find((i) => i.includes('pv-cover'))!,
      /opacity:0\.5/,
    );
  });

  it('shows name, title, business, the four buttons and the footer, with every panel closed', () => {
    const html = page();
    assert.match(html, /<h1 class="pv-name">Thabo Mokoena<\/h1>/);
    assert.match(html, /<p class="pv-title">Sales Director<\/p>/);
    assert.match(html, /<p class="pv-business">Mokoena Solar \(Pty\) Ltd<\/p>/);
    const save = tags(html, 'a').find((a) => attr(a, 'href') === '/api/profiles/thabo/vcard')!;
    assert.match(save, /\sdownload=""/);
    for (const [text, panel] of [
      ['Exchange Contact', 'pv-exchange'],
      ['Get your own Profile', 'pv-own-profile'],
      ['About Me', 'pv-about'],
      ['Let me get in contact with you.', 'pv-lead'],
    ] as const) {
      const button = new RegExp(`<button[^>]*>${text.replace('.', '\\.')}</button>`).exec(html)?.[0];
      assert.ok(button, text);
      assert.equal(attr(button, 'aria-expanded'), 'false');
      assert.equal(attr(button, 'aria-controls'), panel);
      assert.match(
        tags(html, 'div').find((d) => attr(d, 'id') === panel)!,
        /\shidden=""/,
      );
    }
    assert.equal(tags(html, 'button').filter((b) => attr(b, 'data-pv-group') === 'contact').length, 2);
    assert.match(html, /<footer class="pv-footer"><a href="https:\/\/digicard\.example\.co\.za\/">Powered By DigiCard<\/a><\/footer>/);
  });

  it('shows website buttons only with a button name, in a new tab', () => {
    const html = page();
    assert.ok(!html.includes('no-button-name.example.com'));
    const link = tags(html, 'a').find((a) => attr(a, 'href') === 'https://mokoena-solar.example.co.za/')!;
    assert.equal(attr(link, 'target'), '_blank');
    assert.equal(attr(link, 'rel'), 'noopener noreferrer');
    assert.match(link, /background-color:#670404;color:#ffffff;border-color:#000000;border-width:2px/);
    assert.match(html, />Our website<span class="pv-sr"> \(opens in a new tab\)<\/span><\/a>/);
    assert.match(html, />Book a site visit</);
  });

  it('skips unknown platforms, and shows no social icons without the feature', () => {
    const html = page();
    const labels = tags(html, 'a').flatMap((a) => attr(a, 'aria-label') ?? []);
    assert.deepEqual(labels, ['Facebook', 'LinkedIn', 'WhatsApp', 'Instagram']);
    assert.ok(!html.includes('myspace'));
    const off = page((p) => (p.features.socialLinks = false));
    assert.ok(!body(off).includes('pv-social'));
    assert.ok(!off.includes('facebook.com'));
  });

  it('shows the gallery only with the feature and at least one image, lazily, with alt texts', () => {
    const html = page();
    assert.match(html, /<h2 id="pv-gallery-title">My Gallery<\/h2>/);
    const images = tags(html, 'img').filter((i) => attr(i, 'alt')?.startsWith('Gallery image'));
    assert.deepEqual(
      images.map((i) => attr(i, 'alt')),
      ['Gallery image 1 of 3', 'Gallery image 2 of 3', 'Gallery image 3 of 3'],
    );
    for (const image of images) {
      assert.equal(attr(image, 'loading'), 'lazy');
      assert.ok(attr(image, 'width') && attr(image, 'height'));
    }
    assert.ok(!page((p) => (p.document.gallery = [{ imageUrl: '' }, { imageUrl: '' }])).includes('My Gallery'));
    assert.ok(!page((p) => (p.features.gallery = false)).includes('My Gallery'));
  });

  it('shows only products with a link, and none without the feature', () => {
    const html = page();
    assert.match(html, /<h2 id="pv-products-title">Products<\/h2>/);
    assert.match(html, /Home solar kit/);
    assert.match(html, /Battery backup/);
    assert.ok(!html.includes('Unlinked product'));
    assert.ok(!html.includes('product_image_002'));
    const off = page((p) => (p.features.products = false));
    assert.ok(!off.includes('Products'));
    assert.ok(!off.includes('Home solar kit'));
    assert.ok(!body(page((p) => p.document.products.forEach((x) => (x.link = '')))).includes('pv-products'));
  });

  it('embeds YouTube and Vimeo privately and lazily, links other videos, and shows none without the feature', () => {
    const iframe = tags(page(), 'iframe')[0]!;
    assert.equal(attr(iframe, 'src'), 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    assert.equal(attr(iframe, 'loading'), 'lazy');
    assert.equal(attr(iframe, 'title'), 'Video');
    const other = page((p) => (p.document.videoLink = 'https://example.com/my-video.mp4'));
    assert.equal(tags(other, 'iframe').length, 0);
    assert.match(
      other,
      /<a class="pv-btn" href="https:\/\/example\.com\/my-video\.mp4" target="_blank" rel="noopener noreferrer"[^>]*>Watch my video</,
    );
    assert.equal(
      tags(
        page((p) => (p.features.video = false)),
        'iframe',
      ).length,
      0,
    );
    assert.ok(!page((p) => (p.features.video = false)).includes('Watch my video'));
    assert.ok(!body(page((p) => (p.document.videoLink = ''))).includes('pv-video'));

    assert.deepEqual(videoView('https://youtu.be/dQw4w9WgXcQ?t=5'), {
      kind: 'embed',
      provider: 'youtube',
      src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    });
    assert.equal(
      (videoView('https://m.youtube.com/shorts/dQw4w9WgXcQ') as { src: string }).src,
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    );
    assert.deepEqual(videoView('https://vimeo.com/76979871'), {
      kind: 'embed',
      provider: 'vimeo',
      src: 'https://player.vimeo.com/video/76979871?dnt=1',
    });
    assert.deepEqual(videoView('https://www.youtube.com/watch?v=not-an-id'), {
      kind: 'link',
      href: 'https://www.youtube.com/watch?v=not-an-id',
    });
    assert.equal(videoView('javascript:alert(1)'), undefined);
  });

  it('shows the lead form only with the feature; Exchange Contact and Get your own Profile always', () => {
    const html = page();
    const lead = formOf(html, 'lead')!;
    assert.ok(lead);
    assert.match(lead, /action="\/api\/profiles\/thabo\/leads"/);
    assert.match(lead, /method="post"/);
    assert.match(lead, /novalidate=""/i);
    const names = (form: string) => tags(form, '(?:input|textarea)').map((t) => attr(t, 'name'));
    assert.deepEqual(names(lead), ['firstName', 'lastName', 'email', 'phone', 'message', 'consent', 'website']);
    assert.deepEqual(names(formOf(html, 'exchange')!), ['firstName', 'lastName', 'phone', 'email', 'sendCard', 'consent', 'website']);
    // Exchange Contact offers the owner's card by email, ticked unless the visitor unticks it.
    assert.match(formOf(html, 'exchange')!, /Send me Thabo&#x27;s contact card|Send me Thabo's contact card/);
    const sendCard = tags(formOf(html, 'exchange')!, 'input').find((t) => attr(t, 'name') === 'sendCard')!;
    assert.match(sendCard, /checked/);
    assert.deepEqual(names(formOf(html, 'own-profile')!), ['firstName', 'lastName', 'email', 'consent', 'website']);
    assert.match(lead, /I agree that Thabo may contact me about this\./);
    const consent = tags(lead, 'input').find((t) => attr(t, 'name') === 'consent')!;
    assert.equal(attr(consent, 'type'), 'checkbox');
    assert.match(consent, /\srequired=""/);
    const honeypot = tags(lead, 'input').find((t) => attr(t, 'name') === 'website')!;
    assert.equal(attr(honeypot, 'tabindex'), '-1');
    assert.equal(attr(honeypot, 'autocomplete'), 'off');
    assert.equal(attr(honeypot, 'aria-hidden'), 'true');
    assert.match(lead, /<div class="pv-hp" aria-hidden="true">/);
    assert.match(lead, /<button type="submit" class="pv-send" style="background-color:#ffffff;color:#670404">Send<\/button>/);
    for (const label of ['First name', 'Last name', 'Email', 'Phone', 'Message'])
      assert.match(lead, new RegExp(`>${label}(<span|</label>)`));

    const off = page((p) => (p.features.leadForm = false));
    assert.equal(formOf(off, 'lead'), undefined);
    assert.ok(!off.includes('Let me get in contact with you.'));
    assert.ok(formOf(off, 'exchange'));
    assert.ok(formOf(off, 'own-profile'));
  });

  it('leaves About Me out when there is no bio', () => {
    assert.ok(!page((p) => (p.document.profileBio = '  ')).includes('About Me'));
  });
});

describe('ProfileView: hostile content', () => {
  it('escapes names and texts', () => {
    const html = page((p) => {
      p.firstName = '<script>alert(1)</script>';
      p.document.title = '"><img src=x onerror=alert(2)>';
      p.document.profileBio = '<b>bold</b>';
      p.document.websiteLinks = [{ buttonName: '<i>x</i>', url: 'https://example.com' }];
    });
    assert.ok(!html.includes('<script>alert(1)</script>'));
    assert.ok(!html.includes('<img src=x'));
    assert.ok(!html.includes('<b>bold'));
    assert.ok(!html.includes('<i>x'));
    assert.match(html, /<title>&lt;script&gt;alert\(1\)&lt;\/script&gt; Mokoena \| DigiCard<\/title>/);
    assert.match(html, /<h1 class="pv-name">&lt;script&gt;alert\(1\)&lt;\/script&gt; Mokoena<\/h1>/);
    assert.match(html, /content="&quot;&gt;&lt;img src=x onerror=alert\(2\)&gt; – Mokoena Solar/);
  });

  it('never renders a javascript:, data: or other non-web URL', () => {
    const bad = [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<b>x</b>',
      'vbscript:x',
      '//evil.example.com/x',
      '/\\evil.example.com',
    ];
    for (const url of bad) {
      const html = page((p) => {
        p.document.websiteLinks = [{ buttonName: 'Site', url }];
        p.document.socialLinks = [{ platform: 'facebook', url }];
        p.document.products = [{ name: 'P', link: url, imageUrl: url }];
        p.document.videoLink = url;
        p.document.profileImage = url;
        p.document.profileBackground = url;
        p.document.businessLogo = url;
        p.document.gallery = [{ imageUrl: url }];
      });
      assert.ok(!/javascript:|vbscript:|data:|evil\.example/i.test(html), url);
      // Our own Share by email link (DigiSilver) is the one mailto:, with no address in it.
      for (const href of hrefs(html)) assert.match(href, /^(https?:\/\/|\/[^/\\]|mailto:\?subject=)/, href);
    }
  });

  it('safeHref keeps http(s) and root-relative URLs only', () => {
    assert.equal(safeHref('https://example.com'), 'https://example.com/');
    assert.equal(safeHref('http://example.com/a?b=1#c'), 'http://example.com/a?b=1#c');
    assert.equal(safeHref('/media/abc.webp'), '/media/abc.webp');
    for (const value of [
      'javascript:alert(1)',
      'mailto:a@b.co',
      'ftp://x.co',
      'relative/path',
      '//x.co',
      '/\\x.co',
      'https://',
      '',
      42,
      null,
    ]) {
      assert.equal(safeHref(value), undefined, String(value));
    }
    assert.equal(absoluteUrl('/media/a.webp', 'https://d.example/thabo'), 'https://d.example/media/a.webp');
    assert.equal(absoluteUrl('javascript:x', 'https://d.example/'), undefined);
  });

  it('uses only #rrggbb colours from the document', () => {
    const html = page((p) => (p.document.buttonBackgroundColor = 'red;background-image:url(https://evil.example/x)'));
    assert.ok(!html.includes('evil.example'));
    assert.match(html, /background-color:#670404/);
  });
});

describe('ProfileView in preview mode and profileCss', () => {
  it('renders the same profile with React (closed panels, same toggles)', () => {
    const options = pageOptions();
    const html = renderToStaticMarkup(
      <ProfileView profile={options.profile} brandName="DigiCard" siteUrl={options.siteUrl} urls={options.urls} mode="preview" />,
    );
    assert.match(html, /<article class="pv"/);
    assert.equal(tags(html, 'button').filter((b) => attr(b, 'aria-expanded') === 'false').length, 4);
  });

  it('keeps the stylesheet small and scoped', () => {
    assert.ok(profileCss.length < 6000, `${profileCss.length} characters`);
    assert.ok(!profileCss.includes('@import') && !profileCss.includes('url('));
    for (const rule of profileCss.split('}').filter((r) => r.includes('{'))) {
      assert.match(rule.trim(), /^\.pv/, rule);
    }
  });
});

describe('share links (DigiSilver and up)', () => {
  it('tags WhatsApp, email and the share sheet with their source, and shows them only with shareContact', async () => {
    const { shareLinks } = await import('../src/share.js');
    const links = shareLinks('Thabo Mokoena', 'https://digicard.co.za/thabo');
    assert.equal(
      links.whatsapp,
      `https://wa.me/?text=${encodeURIComponent("Thabo Mokoena's digital business card: https://digicard.co.za/thabo?src=wa")}`,
    );
    assert.ok(decodeURIComponent(links.email).endsWith('https://digicard.co.za/thabo?src=email'));
    assert.ok(links.email.startsWith('mailto:?subject='));
    assert.equal(links.url, 'https://digicard.co.za/thabo?src=link');
    const withShare = page(() => undefined);
    assert.ok(withShare.includes('Share on WhatsApp') && withShare.includes('data-pv-click="share:wa"'));
    const without = page((p) => {
      p.features.shareContact = false;
    });
    assert.ok(!without.includes('Share on WhatsApp') && !without.includes('wa.me/?text'));
  });
});
