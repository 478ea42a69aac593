import { formatRand, type EmailJob } from '@digicard/contracts';
import { includedMembership, SA_TIME_ZONE } from '@digicard/domain';

export interface RenderedEmail {
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** Files attached (Exchange Contact's vCard). */
  attachments?: Array<{ filename: string; content: string; contentType: string }>;
}

export interface Brand {
  name: string;
  publicUrl: string;
  salesInbox: string;
  /** When set, receipts show the VAT their amounts include. */
  vatNumber: string | null;
}

/** South Africa's standard VAT rate; our prices include it. */
const VAT_PERCENT = 15;

/** The receipt's VAT line, when the business is VAT-registered: prices include VAT, so it is 15/115 of the total. */
export function vatLine(brand: Brand, totalCents: number): string | null {
  if (!brand.vatNumber) return null;
  const vat = Math.round((totalCents * VAT_PERCENT) / (100 + VAT_PERCENT));
  return `Includes VAT at ${VAT_PERCENT}%: ${formatRand(vat)} (VAT number ${brand.vatNumber})`;
}

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A moment as South Africans read it. */
const when = (iso: string): string =>
  new Date(iso).toLocaleString('en-ZA', { timeZone: SA_TIME_ZONE, dateStyle: 'long', timeStyle: 'short' });

/** Subject lines carry user input: no line breaks, bounded length. */
const oneLine = (value: string, max = 80): string => value.replace(/\s+/g, ' ').trim().slice(0, max);

function layout(brand: Brand, title: string, rows: Array<[string, string]>, intro: string): string {
  const body = rows
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:6px 12px 6px 0;vertical-align:top;color:#484747">${escapeHtml(label)}</th>` +
        `<td style="padding:6px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#eeeeee;font-family:Arial,Helvetica,sans-serif;color:#111">
<table role="presentation" width="100%" style="max-width:600px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<tr><td><p style="margin:0 0 16px;font-size:20px;font-weight:bold;color:#670404">${escapeHtml(brand.name)}</p>
<h1 style="font-size:18px;margin:0 0 12px">${escapeHtml(title)}</h1>
<p style="margin:0 0 16px">${escapeHtml(intro)}</p>
<table role="presentation">${body}</table>
<p style="margin:24px 0 0;font-size:12px;color:#555">Sent by ${escapeHtml(brand.name)} · <a href="${escapeHtml(brand.publicUrl)}">${escapeHtml(brand.publicUrl)}</a></p>
</td></tr></table></body></html>`;
}

function textLayout(brand: Brand, title: string, rows: Array<[string, string]>, intro: string): string {
  return [`${brand.name}`, '', title, '', intro, '', ...rows.map(([l, v]) => `${l}: ${v}`), '', `— ${brand.publicUrl}`].join('\n');
}

function linkEmail(
  brand: Brand,
  to: string,
  subject: string,
  title: string,
  intro: string,
  action: string,
  link: string,
  note: string,
): RenderedEmail {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#eeeeee;font-family:Arial,Helvetica,sans-serif;color:#111">
<table role="presentation" width="100%" style="max-width:600px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<tr><td><p style="margin:0 0 16px;font-size:20px;font-weight:bold;color:#670404">${escapeHtml(brand.name)}</p>
<h1 style="font-size:18px;margin:0 0 12px">${escapeHtml(title)}</h1>
<p style="margin:0 0 20px">${escapeHtml(intro)}</p>
<p style="margin:0 0 20px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#670404;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(action)}</a></p>
<p style="margin:0 0 8px;font-size:13px;color:#444">Or open this address: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p style="margin:16px 0 0;font-size:13px;color:#444">${escapeHtml(note)}</p>
<p style="margin:24px 0 0;font-size:12px;color:#555">Sent by ${escapeHtml(brand.name)} · <a href="${escapeHtml(brand.publicUrl)}">${escapeHtml(brand.publicUrl)}</a></p>
</td></tr></table></body></html>`;
  const text = [brand.name, '', title, '', intro, '', `${action}: ${link}`, '', note, '', `— ${brand.publicUrl}`].join('\n');
  return { to, subject, text, html };
}

type WalletOfferJob = Extract<EmailJob, { template: 'wallet-pass-offer' }>;

/** A leader gave every rep their pass: one button per wallet offered, each opening the rep's own dashboard. */
function walletOffer(job: WalletOfferJob, brand: Brand): RenderedEmail {
  const title = 'Your card, in your phone’s wallet';
  const intro = `Hi ${oneLine(job.firstName, 60)}, ${oneLine(job.leaderName, 120)} would like you to carry your ${brand.name} card in your phone's wallet: your QR code is then a double-press away at any meeting, with no app and no data needed, and it updates itself when your profile changes.`;
  const links: Array<[string, string]> = [
    ...(job.appleLink ? [['Add to Apple Wallet', job.appleLink] as [string, string]] : []),
    ...(job.googleLink ? [['Add to Google Wallet', job.googleLink] as [string, string]] : []),
  ];
  const note = 'Each link opens your dashboard (sign in if asked), where the button adds your own card.';
  const buttons = links
    .map(
      ([action, link]) =>
        `<p style="margin:0 0 12px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#670404;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(action)}</a></p>`,
    )
    .join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#eeeeee;font-family:Arial,Helvetica,sans-serif;color:#111">
<table role="presentation" width="100%" style="max-width:600px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<tr><td><p style="margin:0 0 16px;font-size:20px;font-weight:bold;color:#670404">${escapeHtml(brand.name)}</p>
<h1 style="font-size:18px;margin:0 0 12px">${escapeHtml(title)}</h1>
<p style="margin:0 0 20px">${escapeHtml(intro)}</p>
${buttons}
<p style="margin:16px 0 0;font-size:13px;color:#444">${escapeHtml(note)}</p>
<p style="margin:24px 0 0;font-size:12px;color:#555">Sent by ${escapeHtml(brand.name)} · <a href="${escapeHtml(brand.publicUrl)}">${escapeHtml(brand.publicUrl)}</a></p>
</td></tr></table></body></html>`;
  const text = [
    brand.name,
    '',
    title,
    '',
    intro,
    '',
    ...links.map(([action, link]) => `${action}: ${link}`),
    '',
    note,
    '',
    `— ${brand.publicUrl}`,
  ].join('\n');
  return { to: job.to, subject: `[${brand.name}] ${title}`, text, html };
}

type OrderReceiptJob = Extract<EmailJob, { template: 'order-receipt' }>;
type OrderStateJob = Extract<EmailJob, { template: 'order-state-changed' }>;

/** What each move of an order tells its owner: the title, and what happens next. */
const OrderStateTexts: Partial<Record<OrderStateJob['status'], { title: string; next: string }>> = {
  'proof-ready': {
    title: 'Your print proof is ready',
    next: 'Please look at it under Orders in your dashboard and approve it, or ask for changes. We print only what you approve.',
  },
  'changes-requested': {
    title: 'We have your changes',
    next: 'We will send you a new proof. Changing your profile renders the proof again too.',
  },
  approved: { title: 'Proof approved: your cards go to print', next: 'We will let you know when they are printed and on their way.' },
  printing: { title: 'Your cards are being printed', next: 'Next we encode each card’s NFC chip.' },
  'nfc-encoded': { title: 'Your cards’ NFC chips are encoded', next: 'They will be on their way to you soon.' },
  shipped: { title: 'Your cards are on their way', next: 'Track the parcel with the courier’s tracking number below.' },
  delivered: {
    title: 'Your cards have been delivered',
    next: 'Tap a card on a phone: it opens your profile. Lost one? Disable it under Orders in your dashboard.',
  },
  cancelled: { title: 'Your order is cancelled', next: 'If you paid, the refund follows. Questions? Reply to this email.' },
  refunded: { title: 'Your order is refunded', next: 'The money goes back to the card or account you paid with; banks take a few days.' },
};

/** An order moved on: what it is now, the note if any (the owner's or the print team's), the courier and tracking. */
function orderStateChanged(job: OrderStateJob, brand: Brand): RenderedEmail {
  const unpaidCancel = job.status === 'cancelled' && job.from === 'awaiting-payment';
  const texts = unpaidCancel
    ? {
        title: 'Your order is cancelled',
        next: 'nothing was paid for it, so nothing is charged. Want the cards after all? Order them again from the shop.',
      }
    : (OrderStateTexts[job.status] ?? { title: `Your order is ${job.status}`, next: '' });
  const title = `${texts.title} (order ${job.reference})`;
  // "Hi Nomsa, please look at it...": the sentence goes on after the greeting's comma.
  const intro = `Hi ${oneLine(job.firstName, 60)}, ${texts.next.charAt(0).toLowerCase()}${texts.next.slice(1)}`;
  const rows: Array<[string, string]> = [
    ['Order', job.reference],
    ['Status', job.status.replace('-', ' ')],
    ['When', when(job.at)],
    ...(job.note ? [['Note', job.note] as [string, string]] : []),
    ...(job.courier ? [['Courier', job.courier] as [string, string]] : []),
    ...(job.trackingNumber ? [['Tracking number', job.trackingNumber] as [string, string]] : []),
    ['Your orders', `${brand.publicUrl}/dashboard`],
  ];
  return {
    to: job.to,
    subject: `[${brand.name}] ${oneLine(title)}`,
    text: textLayout(brand, title, rows, intro),
    html: layout(brand, title, rows, intro),
  };
}

/** The receipt of a paid order: its reference, every line with its quantity, the total, and what happens next. */
function orderReceipt(job: OrderReceiptJob, brand: Brand): RenderedEmail {
  const title = `Thank you for your order ${job.reference}`;
  const intro = `Hi ${oneLine(job.firstName, 60)}, thank you for your order. We have received your payment.`;
  const next = [
    'Next we make a print proof of your cards: front and back, with your name, title, business, logo and QR code. We email you when it is ready, usually within minutes.',
    'Then open Orders in your dashboard to approve the proof, or ask for changes. We print only the proof you approve.',
    'In the meantime, complete your profile: the proof is made from it (a change before you approve makes a new proof), and your QR code is in the QR Code section of your dashboard.',
  ];
  const closing = 'Happy networking with your Digital Business Profile!';
  const paidAt = new Date(job.paidAt).toLocaleString('en-ZA', { timeZone: SA_TIME_ZONE });
  // What a special's line includes, in libs/domain's words (nothing for a card without months of DigiGold).
  const gold = (includedGoldMonths: number): string => {
    const included = includedMembership({ includedGoldMonths });
    return included ? ` (${included})` : '';
  };
  // "PVC NFC Card in Black": the colour chosen (absent only from a receipt of an order placed before colours).
  const named = (l: { name: string; colour: string }): string => (l.colour ? `${l.name} in ${l.colour}` : l.name);
  const amount = (cents: number): string => `<span style="white-space:nowrap">${escapeHtml(formatRand(cents))}</span>`;
  const cell = 'padding:6px 8px;border-bottom:1px solid #ddd';
  const vat = vatLine(brand, job.totalCents);
  const rows = job.lines
    .map(
      (l) =>
        `<tr><td style="${cell}">${escapeHtml(named(l) + gold(l.includedGoldMonths))}</td><td align="right" style="${cell}">${l.quantity}</td>` +
        `<td align="right" style="${cell}">${amount(l.unitPriceCents)}</td><td align="right" style="${cell}">${amount(l.lineTotalCents)}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#eeeeee;font-family:Arial,Helvetica,sans-serif;color:#111">
<table role="presentation" width="100%" style="max-width:600px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<tr><td><p style="margin:0 0 16px;font-size:20px;font-weight:bold;color:#670404">${escapeHtml(brand.name)}</p>
<h1 style="font-size:18px;margin:0 0 12px">${escapeHtml(title)}</h1>
<p style="margin:0 0 16px">${escapeHtml(intro)}</p>
<p style="margin:0 0 8px">Order reference: <strong>${escapeHtml(job.reference)}</strong><br>Paid: ${escapeHtml(paidAt)}</p>
<table role="presentation" width="100%" style="border-collapse:collapse;margin:8px 0 16px">
<tr><th align="left" style="${cell}">Item</th><th align="right" style="${cell}">Qty</th><th align="right" style="${cell}">Price</th><th align="right" style="${cell}">Amount</th></tr>
${rows}
<tr><th align="left" colspan="3" style="padding:8px">Total</th><th align="right" style="padding:8px">${amount(job.totalCents)}</th></tr>
</table>
${vat ? `<p style="margin:0 0 16px;font-size:13px;color:#444">${escapeHtml(vat)}</p>` : ''}
${next.map((p) => `<p style="margin:0 0 12px">${escapeHtml(p)}</p>`).join('\n')}
<p style="margin:0 0 12px">${escapeHtml(closing)}</p>
<p style="margin:24px 0 0;font-size:12px;color:#555">Sent by ${escapeHtml(brand.name)} · <a href="${escapeHtml(brand.publicUrl)}">${escapeHtml(brand.publicUrl)}</a></p>
</td></tr></table></body></html>`;
  const text = [
    brand.name,
    '',
    title,
    '',
    intro,
    '',
    `Order reference: ${job.reference}`,
    `Paid: ${paidAt}`,
    '',
    ...job.lines.map(
      (l) => `${l.quantity} x ${named(l)}${gold(l.includedGoldMonths)} at ${formatRand(l.unitPriceCents)}: ${formatRand(l.lineTotalCents)}`,
    ),
    `Total: ${formatRand(job.totalCents)}`,
    ...(vat ? [vat] : []),
    '',
    ...next,
    '',
    closing,
    '',
    `— ${brand.publicUrl}`,
  ].join('\n');
  return { to: job.to, subject: `Your ${brand.name} order ${job.reference}: thank you`, text, html };
}

/** Renders the email a job asks for. Every template lives here, so wording is changed in one place. */
export function renderEmail(job: EmailJob, brand: Brand): RenderedEmail {
  switch (job.template) {
    case 'lead-captured': {
      const l = job.lead;
      const who = oneLine(`${l.firstName} ${l.lastName}`);
      const what = {
        lead: 'sent you a message',
        exchange: 'shared their contact details',
        'own-profile': 'would like a digital profile of their own',
      }[l.kind];
      const title = `${who} ${what}`;
      const intro = `Hi ${oneLine(job.ownerFirstName, 60)}, someone used your ${brand.name} profile. You can see all your leads in your dashboard.`;
      const rows: Array<[string, string]> = [
        ['Name', `${l.firstName} ${l.lastName}`.trim()],
        ['Email', l.email],
        ...(l.phone ? [['Phone', l.phone] as [string, string]] : []),
        ...(l.message ? [['Message', l.message] as [string, string]] : []),
        ['Received', new Date(l.createdAt).toLocaleString('en-ZA', { timeZone: SA_TIME_ZONE })],
      ];
      return {
        to: job.to,
        replyTo: l.email,
        subject: `[${brand.name}] ${title}`,
        text: textLayout(brand, title, rows, intro),
        html: layout(brand, title, rows, intro),
      };
    }
    case 'visitor-welcome': {
      const title = `Get your own ${brand.name} profile`;
      const intro = `Hi ${oneLine(job.firstName, 60)}, you asked ${oneLine(job.ownerName, 120)} about a digital business card of your own. Sign up in a minute: we have filled in the details you gave.`;
      return linkEmail(
        brand,
        job.to,
        `Your own ${brand.name} profile`,
        title,
        intro,
        'Create my profile',
        job.link,
        `DigiShare is free: your contact details, a QR code and Save to Contact. If you did not ask for this, ignore this email.`,
      );
    }
    case 'verify-email': {
      const title = 'Please verify your email address';
      const intro = `Hi ${oneLine(job.firstName, 60)}, welcome to ${brand.name}! Verify your email address so that you can share your profile.`;
      return linkEmail(
        brand,
        job.to,
        `Verify your email address for ${brand.name}`,
        title,
        intro,
        'Verify my email',
        job.link,
        `The link works once and for 24 hours. If you did not register with ${brand.name}, ignore this email.`,
      );
    }
    case 'reset-password': {
      const title = 'Reset your password';
      const intro = `Hi ${oneLine(job.firstName, 60)}, someone (we hope you) asked to reset the password of your ${brand.name} account.`;
      return linkEmail(
        brand,
        job.to,
        `Reset your ${brand.name} password`,
        title,
        intro,
        'Choose a new password',
        job.link,
        'The link works once and for 30 minutes. If you did not ask for it, ignore this email: your password stays as it is.',
      );
    }
    case 'rep-welcome': {
      const title = `Welcome to your team on ${brand.name}`;
      const intro = `Hi ${oneLine(job.firstName, 60)}, ${oneLine(job.leaderName, 120)} added you to their team on ${brand.name}. Your digital business profile is ready, with your team's business details on it. Choose your password to sign in and add your photo, title and bio.`;
      return linkEmail(
        brand,
        job.to,
        title,
        title,
        intro,
        'Choose your password',
        job.link,
        'The link works once and for 7 days. If it has run out, use "Forgot password" on the sign-in page with this email address.',
      );
    }
    case 'wallet-pass-offer':
      return walletOffer(job, brand);
    case 'order-receipt':
      return orderReceipt(job, brand);
    case 'membership-receipt': {
      const title = job.started ? `Your ${job.tier} membership has started` : `Your ${job.tier} membership is paid`;
      const intro = job.started
        ? `Hi ${oneLine(job.firstName, 60)}, welcome to ${job.tier}! We have received your first payment, and everything ${job.tier} includes is on your profile now.`
        : `Hi ${oneLine(job.firstName, 60)}, thank you: we have received your ${job.tier} payment. Everything ${job.tier} includes is on your profile now.`;
      const rows: Array<[string, string]> = [
        ['Membership', job.tier],
        ['Amount', formatRand(job.amountCents)],
        ...(vatLine(brand, job.amountCents) ? [['VAT', vatLine(brand, job.amountCents)!] as [string, string]] : []),
        ['Paid', when(job.paidAt)],
        ...(job.paidUntil ? [['Paid until', when(job.paidUntil)] as [string, string]] : []),
        ['Billing', 'Monthly through PayFast, until you cancel under Billing in your dashboard.'],
      ];
      return {
        to: job.to,
        subject: `[${brand.name}] ${title}`,
        text: textLayout(brand, title, rows, intro),
        html: layout(brand, title, rows, intro),
      };
    }
    case 'membership-ended': {
      const title = 'Your profile is on DigiShare again';
      const intro = `Hi ${oneLine(job.firstName, 60)}, your paid membership has ended. Your profile stays online on DigiShare, free.`;
      const rows: Array<[string, string]> = [
        ['What visitors see', 'Your contact details, logo, profile image, QR code and Save to Contact.'],
        [
          'What is hidden',
          'Anything your paid tier showed (social links, gallery, video, products, the lead form) is hidden, never deleted.',
        ],
        ['To bring it back', 'Choose DigiSilver or DigiGold under Billing in your dashboard.'],
      ];
      return {
        to: job.to,
        subject: `[${brand.name}] ${title}`,
        text: textLayout(brand, title, rows, intro),
        html: layout(brand, title, rows, intro),
      };
    }
    case 'membership-cancelled': {
      const title = `Your ${job.tier} membership is cancelled`;
      const until = job.endsAt ? when(job.endsAt) : null;
      const intro = until
        ? `Hi ${oneLine(job.firstName, 60)}, your ${job.tier} membership is cancelled: PayFast will not charge you again. You keep ${job.tier} until ${until}.`
        : `Hi ${oneLine(job.firstName, 60)}, your ${job.tier} membership is cancelled: PayFast will not charge you again.`;
      const rows: Array<[string, string]> = [
        ['Membership', job.tier],
        ['Monthly amount', `${formatRand(job.monthlyCents)} (no longer charged)`],
        ...(until ? [[`${job.tier} until`, until] as [string, string]] : []),
        ['After that', 'Your profile returns to DigiShare, free. What it shows above DigiShare is hidden, never deleted.'],
        ['Changed your mind?', 'Choose DigiSilver or DigiGold again under Billing in your dashboard.'],
      ];
      return {
        to: job.to,
        subject: `[${brand.name}] ${title}`,
        text: textLayout(brand, title, rows, intro),
        html: layout(brand, title, rows, intro),
      };
    }
    case 'registration-attempted': {
      const title = 'Someone tried to register with your email address';
      const intro = `Hi ${oneLine(job.firstName, 60)}, someone tried to create a new ${brand.name} account with this email address, which already has an account: yours. Nothing was changed and no new account was made.`;
      return linkEmail(
        brand,
        job.to,
        `[${brand.name}] Someone tried to register with your email address`,
        title,
        intro,
        'Sign in',
        job.signInLink,
        'If it was you, sign in instead; if you forgot your password, choose Reset Password on the sign-in page. If it was not you, you need do nothing: your account and password are as they were.',
      );
    }
    case 'confirm-email-change': {
      const title = 'Please confirm your new email address';
      const intro = `Hi ${oneLine(job.firstName, 60)}, you asked to use this address for your ${brand.name} account. Confirm it, and use it to log in from then on. Your email stays the same until you do.`;
      return linkEmail(
        brand,
        job.to,
        `Confirm your new email address for ${brand.name}`,
        title,
        intro,
        'Confirm my new email',
        job.link,
        `The link works once and for 24 hours. If you did not ask for this, ignore this email: nothing changes.`,
      );
    }
    case 'email-changed': {
      const title = 'Your email address was changed';
      const intro = `Hi ${oneLine(job.firstName, 60)}, the email address of your ${brand.name} account is now ${oneLine(job.newEmail, 254)}. Please use it to log in from now on; we will not send email about your account to this address any more.`;
      return linkEmail(
        brand,
        job.to,
        `[${brand.name}] Your email address was changed`,
        title,
        intro,
        'Log in',
        job.signInLink,
        `If you did not change it, someone may know your password: please contact us at ${brand.salesInbox} straight away.`,
      );
    }
    case 'email-change-attempted': {
      const title = 'Someone tried to use your email address';
      const intro = `Hi ${oneLine(job.firstName, 60)}, someone asked to move another ${brand.name} account to this email address, which already has an account: yours. Nothing was changed.`;
      return linkEmail(
        brand,
        job.to,
        `[${brand.name}] Someone tried to use your email address`,
        title,
        intro,
        'Log in',
        job.signInLink,
        'If it was you, log in to this account instead. If it was not you, you need do nothing: your account and password are as they were.',
      );
    }
    case 'exchange-card': {
      const owner = oneLine(job.ownerName, 120);
      const title = `${owner}'s contact card`;
      const intro = `Hi ${oneLine(job.firstName, 60)}, thank you for exchanging contact details with ${owner}. Their contact card is attached: open it to add ${owner} to your contacts.`;
      const rows: Array<[string, string]> = [
        ['Contact card', job.vcard.fileName],
        ['Profile', job.profileUrl],
      ];
      return {
        to: job.to,
        subject: `[${brand.name}] ${title}`,
        text: textLayout(brand, title, rows, intro),
        html: layout(brand, title, rows, intro),
        attachments: [{ filename: job.vcard.fileName, content: job.vcard.content, contentType: 'text/vcard; charset=utf-8' }],
      };
    }
    case 'payment-failed': {
      const title = `Your ${job.tier} payment did not go through`;
      const intro = `Hi ${oneLine(job.firstName, 60)}, PayFast could not take this month's ${job.tier} payment. Please check the card you pay with at PayFast; PayFast will try again.`;
      const rows: Array<[string, string]> = [
        ['Membership', job.tier],
        ['Amount', formatRand(job.amountCents)],
        ['Your features stay until', when(job.graceUntil)],
        [
          'After that',
          'Your profile returns to DigiShare. What it shows above DigiShare is hidden, never deleted, and comes back when you pay.',
        ],
      ];
      return {
        to: job.to,
        subject: `[${brand.name}] ${title}`,
        text: textLayout(brand, title, rows, intro),
        html: layout(brand, title, rows, intro),
      };
    }
    case 'order-state-changed':
      return orderStateChanged(job, brand);
    case 'enquiry-received': {
      const e = job.enquiry;
      const { title, intro } = {
        'call-back': {
          title: `Call-back request from ${oneLine(e.name)}`,
          intro: 'Someone filled in "Get things started" on the website and would like us to get in touch.',
        },
        message: {
          title: `New message from ${oneLine(e.name)}`,
          intro: 'Someone sent a message with the "Let us contact you" form on the contact page.',
        },
        quote: {
          title: `DigiPlatinum quote request from ${oneLine(e.company ?? e.name)}`,
          intro: 'A team would like a DigiPlatinum quote (group use and analytics). Please reply with a price.',
        },
      }[e.kind];
      const rows: Array<[string, string]> = [
        ['Name', e.name],
        ...(e.company ? [['Company', e.company] as [string, string]] : []),
        ...(e.teamSize ? [['Team size', `${e.teamSize} people`] as [string, string]] : []),
        ['Email', e.email],
        ...(e.phone ? [['Number', e.phone] as [string, string]] : []),
        ...(e.message ? [['Message', e.message] as [string, string]] : []),
        ['Received', new Date(e.receivedAt).toLocaleString('en-ZA', { timeZone: SA_TIME_ZONE })],
        ['Reference', e.enquiryId],
      ];
      return {
        to: brand.salesInbox,
        replyTo: e.email,
        subject: `[${brand.name}] ${title}`,
        text: textLayout(brand, title, rows, intro),
        html: layout(brand, title, rows, intro),
      };
    }
  }
}
