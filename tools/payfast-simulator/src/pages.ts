import { frequencyLabel, type CheckoutRequest } from './checkout.js';
import { formatDate } from './dates.js';
import { escapeHtml } from './http.js';
import { formatRand } from './money.js';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a2e;background:#eef1f6}
main{max-width:30rem;margin:0 auto;padding:1.25rem 1rem 2rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.banner{margin:0 0 1rem;padding:.5rem .75rem;border-radius:8px;background:#fff4ce;color:#5c4400;font-size:.875rem}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 1rem}
dl{margin:0 0 1.25rem;display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem}
dt{color:#4a4f5c}
dd{margin:0;font-weight:600;overflow-wrap:anywhere}
dd small{display:block;font-weight:400;color:#4a4f5c}
.amount{font-size:1.5rem;white-space:nowrap}
.nowrap{white-space:nowrap}
.actions{display:flex;flex-direction:column;gap:.75rem}
.actions form{margin:0}
button{width:100%;min-height:48px;font:inherit;font-weight:600;border-radius:8px;cursor:pointer;padding:.75rem 1rem}
button:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.pay{background:#0b5e2e;color:#fff;border:0}
.cancel{background:#fff;color:#1a1a2e;border:2px solid #6b7080}
.problems{color:#8a1c1c;padding-left:1.25rem}
code{font-size:.875rem}
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en-ZA">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · PayFast simulator</title><style>${STYLE}</style></head>
<body><main>
<p class="banner" role="note">PayFast simulator for development and tests. No money moves.</p>
<div class="card">${body}</div>
</main></body></html>`;
}

const cyclesText = (cycles: number): string => (cycles === 0 ? 'until cancelled' : `for ${cycles} payment${cycles === 1 ? '' : 's'}`);

/** The page a buyer sees: who is paid, for what, how much, and for a subscription what follows; then Pay or Cancel. */
export function checkoutPage(request: CheckoutRequest, actionBase: string): string {
  const rows: Array<[string, string]> = [
    ['Merchant', escapeHtml(request.merchantId)],
    ['Item', escapeHtml(request.itemName) + (request.itemDescription ? `<small>${escapeHtml(request.itemDescription)}</small>` : '')],
    [request.subscription ? 'Pay now' : 'Amount', `<span class="amount">${formatRand(request.amountCents)}</span>`],
  ];
  const s = request.subscription;
  if (s) {
    rows.push(
      ['Recurring amount', `<span class="nowrap">${formatRand(s.recurringCents)}</span>`],
      ['Frequency', `${escapeHtml(frequencyLabel(s.frequency))}, ${cyclesText(s.cycles)}`],
      ['First billing date', `<span class="nowrap">${escapeHtml(formatDate(s.billingDate))}</span>`],
    );
  }
  const name = `${request.nameFirst} ${request.nameLast}`.trim();
  const email = request.emailAddress;
  if (name || email) {
    rows.push(['Paying as', name ? escapeHtml(name) + (email ? `<small>${escapeHtml(email)}</small>` : '') : escapeHtml(email)]);
  }
  if (request.mPaymentId) rows.push(['Reference', `<code>${escapeHtml(request.mPaymentId)}</code>`]);
  const list = rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('');
  const heading = s ? 'Confirm your subscription' : 'Confirm your payment';
  return layout(
    `${heading}: ${request.itemName}`,
    `<h1>${heading}</h1><dl>${list}</dl>
<div class="actions">
<form method="post" action="${escapeHtml(actionBase)}/pay"><button type="submit" class="pay">Pay</button></form>
<form method="post" action="${escapeHtml(actionBase)}/cancel"><button type="submit" class="cancel">Cancel</button></form>
</div>`,
  );
}

/** What PayFast shows for a request it refuses: every reason, so the integration can be fixed. */
export function errorPage(problems: readonly string[]): string {
  return layout(
    'Payment request refused',
    `<h1>This payment request was refused</h1>
<p>The merchant's request has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}:</p>
<ul class="problems">${problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>`,
  );
}

/** A plain message page: after Pay or Cancel with nowhere to return to, or for a finished or unknown checkout. */
export function messagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

export function indexPage(merchantId: string, withPassphrase: boolean): string {
  const links = ['/_sim/itns', '/_sim/payments', '/_sim/subscriptions'].map((p) => `<li><a href="${p}">${p}</a></li>`).join('');
  return layout(
    'Overview',
    `<h1>PayFast simulator</h1>
<p>Merchant <code>${escapeHtml(merchantId)}</code>, ${withPassphrase ? 'with' : 'without'} a passphrase.
Post payment requests to <code>/eng/process</code>; ITNs are validated at <code>/eng/query/validate</code>;
the subscriptions API answers under <code>/subscriptions/{token}/…</code>.</p>
<ul>${links}</ul>`,
  );
}
