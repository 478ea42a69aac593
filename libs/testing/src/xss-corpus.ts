import { ProfileDefaults } from '@digicard/contracts';
import { registerOwner, setMembership } from './accounts.js';
import type { TestSystem } from './system.js';

/**
 * The XSS corpus: markup and attribute break-outs put into every text field a person controls (the profile
 * document's texts and links, the owner's names, a visitor's lead, the enquiry forms), then looked for, unescaped,
 * where they come out: the public profile page, the vCard, and the HTML of every email it leads to (read from the
 * mail catcher). An email's subject is a header, plain text to every mail client, so it is not searched for markup;
 * neither is the vCard, which is text: there, a line break that adds a property is the finding. Each payload names its field (`xss('<field>')`), so a finding says where it came in.
 *
 * "Unescaped" means the payload's markup survives as markup: `<script>xss(`, `<img src=x onerror=xss(`,
 * `<svg onload=xss(` ... appear literally. Escaped text (`&lt;script&gt;`, `\u003cscript`) is fine. The page's
 * Content-Security-Policy would block inline script anyway; this checks the escaping itself, CSP aside.
 */

/** Short enough for the 40-character button names. `F` is replaced by the field's code. */
export const Payloads = [
  `<script>xss('F')</script>`,
  `"><img src=x onerror=xss('F')>`,
  `'><svg onload=xss('F')>`,
  `</style><svg/onload=xss('F')>`,
  `</script><script>xss('F')</script>`,
  `<iframe srcdoc="xss('F')">`,
] as const;

/** Links must be http(s) (the schema refuses javascript: and data:); these break out of an href instead. */
export const LinkPayloads = [
  `https://evil.example/"><img src=x onerror=xss('F')>`,
  `https://evil.example/?q='><svg onload=xss('F')>`,
] as const;

/** What a payload looks like when it survived as markup. */
const UNESCAPED = [
  /<script>xss\('([\w.-]+)'\)/g,
  /<img src=x onerror=xss\('([\w.-]+)'\)/g,
  /<svg\/?\s*onload=xss\('([\w.-]+)'\)/g,
  /<iframe srcdoc="xss\('([\w.-]+)'\)/g,
];

/** The fields whose payloads survived as markup in `text`. */
export function unescapedFields(text: string): string[] {
  const found = new Set<string>();
  for (const pattern of UNESCAPED) for (const m of text.matchAll(pattern)) found.add(m[1] as string);
  return [...found].sort();
}

const fill = (payload: string, field: string) => payload.replace('F', field);

/** The fields whose payload reached `text` at all, escaped or not (the quote around the field name in any form). */
export function presentFields(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/xss\((?:'|&#39;|&#x27;|&apos;|\\u0027|%27)([\w.-]+)/g)) found.add(m[1] as string);
  return [...found].sort();
}

export interface CorpusResult {
  /** Where the corpus came out: public page, vCard, each email by template. */
  surface: string;
  /** The fields whose payloads reached it (found escaped or not), over all payloads. */
  carried: string[];
  /** Fields whose payload survived as markup: each one a finding. */
  unescaped: string[];
  /** vCard only: properties a payload added (a line break that was not escaped). */
  injectedLines?: string[];
}

/** Runs the corpus, payload by payload, through the running system (all of identity, profiles, notifications, orders, gateway). */
export async function runXssCorpus(system: TestSystem): Promise<CorpusResult[]> {
  const results = new Map<string, CorpusResult>();
  const record = (surface: string, text: string, extra: Partial<CorpusResult> = {}) => {
    const previous = results.get(surface) ?? { surface, carried: [], unescaped: [] };
    previous.carried = [...new Set([...previous.carried, ...presentFields(extra.carried ? extra.carried.join(' ') : text)])].sort();
    previous.unescaped = [...new Set([...previous.unescaped, ...unescapedFields(text)])].sort();
    if (extra.injectedLines) previous.injectedLines = [...(previous.injectedLines ?? []), ...extra.injectedLines];
    results.set(surface, previous);
  };

  for (const [index, payload] of Payloads.entries()) {
    const link = LinkPayloads[index % LinkPayloads.length] as string;
    const username = `xss${index}-${Date.now().toString(36)}`;
    const email = `${username}@example.co.za`;
    // The owner's names go into the verification email; the profile's texts into the page and the vCard.
    const owner = await registerOwner(system, {
      username,
      firstName: fill(payload, 'firstName'),
      lastName: fill(payload, 'lastName'),
      email,
    });
    await setMembership(system, username, 'DigiGold');
    const document = {
      ...ProfileDefaults,
      title: fill(payload, 'title'),
      profileBio: `${fill(payload, 'profileBio')}\nEMAIL;TYPE=INTERNET:bio-newline@evil.example\rEMAIL;TYPE=INTERNET:bio-cr@evil.example`,
      businessName: fill(payload, 'businessName'),
      tel: '082 123 4567',
      videoLink: fill(link, 'videoLink'),
      websiteLinks: [{ buttonName: fill(payload, 'wl.name'), url: fill(link, 'wl.url') }],
      socialLinks: [{ platform: 'linkedin' as const, url: fill(link, 'social.url') }],
      products: [{ name: fill(payload, 'product.name'), link: fill(link, 'product.link'), imageUrl: '' }],
    };
    const saved = await owner.client.request('/api/profile', { method: 'PUT', body: { document } });
    if (saved.status !== 200) throw new Error(`saving the corpus profile failed: ${saved.status} ${JSON.stringify(saved.body)}`);

    const visitor = system.client();
    const page = await visitor.request(`/${username}`);
    record('public profile page (HTML)', page.status === 200 ? String(page.body) : '');

    const vcard = await visitor.request(`/api/profiles/${username}/vcard`);
    const vcardText = String(vcard.body);
    const injected = vcardText.split(/\r\n|\n|\r/).filter((line) => /^EMAIL.*evil\.example/i.test(line));
    // A vCard is text, not HTML (served as text/vcard, an attachment): markup in its values is not run by anything;
    // what matters there is that a value cannot add a property (line breaks escaped).
    record('vCard', '', { injectedLines: injected, carried: [vcardText.replace(/\\,/g, ',').replace(/\\;/g, ';')] });

    // A visitor's lead carries payloads into the owner's email.
    const lead = await visitor.request(`/api/profiles/${username}/leads`, {
      method: 'POST',
      body: {
        kind: 'lead',
        firstName: fill(payload, 'lead.firstName'),
        lastName: fill(payload, 'lead.lastName'),
        email: `v${index}@example.co.za`,
        message: fill(payload, 'lead.message'),
        consent: true,
      },
    });
    if (lead.status === 202) {
      const mail = await system.mail.waitFor((m) => m.to.includes(email) && /lead|message|contact/i.test(m.subject));
      record('email: lead-captured', mail.html ?? '');
    }

    const verify = await system.mail.waitFor((m) => m.to.includes(email) && /Verify/.test(m.subject));
    record('email: verify-email', verify.html ?? '');

    const reset = await visitor.request('/api/password-reset/request', { method: 'POST', body: { email } });
    if (reset.status === 202) {
      const mail = await system.mail.waitFor((m) => m.to.includes(email) && /Reset/.test(m.subject));
      record('email: reset-password', mail.html ?? '');
    }

    // The enquiry forms carry payloads into the sales inbox.
    const enquiries: Array<[string, Record<string, unknown>]> = [
      ['call-back', { name: fill(payload, 'callback.name'), email: `cb${index}-${username}@example.co.za`, number: '0821234567' }],
      [
        'message',
        { name: fill(payload, 'message.name'), email: `msg${index}-${username}@example.co.za`, message: fill(payload, 'message.message') },
      ],
    ];
    for (const [kind, body] of enquiries) {
      const res = await visitor.request(`/api/enquiries/${kind}`, { method: 'POST', body });
      if (res.status !== 202) throw new Error(`enquiry ${kind}: ${res.status} ${JSON.stringify(res.body)}`);
      const from = String(body['email']);
      const mail = await system.mail.waitFor((m) => m.text.includes(from));
      record('email: enquiry-received', mail.html ?? '');
    }
  }
  return [...results.values()];
}

/** The results as a Markdown table. */
export function corpusMarkdown(results: CorpusResult[]): string {
  return [
    '| where it comes out | fields whose payloads reached it | unescaped markup | injected vCard lines |',
    '|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.surface} | ${r.carried.join(', ')} | ${r.unescaped.length ? r.unescaped.join(', ') : 'none'} | ${r.injectedLines ? (r.injectedLines.length ? r.injectedLines.length : 'none') : 'n/a'} |`,
    ),
  ].join('\n');
}
