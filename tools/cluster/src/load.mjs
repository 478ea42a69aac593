// What flows through the cluster while faults are injected: leads (the enquiry form), registrations, public page
// views and checkout payments (order, PayFast's page, Pay, the ITN back through the load balancer), each at a steady
// rate from one process. Every request is recorded with the phase (fault) it was sent in; at the end the accounting
// compares what was accepted with what is stored and emailed, as tools/chaos does for leads.
import { ProfileDefaults } from '../../../libs/contracts/dist/src/index.js';
import { SALES_INBOX, registerOwner, setMembership } from '../../../libs/testing/dist/src/index.js';
import { failuresByPhase } from './accounting.mjs';

const BROWSER = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const PASSWORD = 'a long enough passphrase';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Why a request failed, from its answer's body: the API's error code, HAProxy's own 503 page (no gateway in service),
 * or the start of whatever else came back. Nothing for an answer that did not fail.
 * @param {number} status
 * @param {string} text
 */
function reasonOf(status, text) {
  if (status < 400) return undefined;
  try {
    const code = JSON.parse(text)?.code;
    if (typeof code === 'string') return code;
  } catch {
    /* not the API's JSON */
  }
  if (/No server is available/i.test(text)) return 'load balancer: no gateway in service';
  return text.replace(/\s+/g, ' ').slice(0, 60) || undefined;
}

/** @param {string} text */
function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** @param {number[]} values */
function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) };
}

/** A request's outcome: its status and, when it failed, why (see `reasonOf`). */
async function outcome(res) {
  const text = await res.text().catch(() => '');
  return { status: res.status, reason: reasonOf(res.status, text), text };
}

/** @typedef {'lead' | 'registration' | 'view' | 'payment'} Kind */
/** @typedef {{ kind: Kind, phase: string, at: number, status: number, reason?: string, ms: number }} Sample */

export class Load {
  /**
   * @param {import('./cluster.mjs').Cluster} cluster
   * @param {{ leads: number, registrations: number, views: number, payments: number }} rates per second
   */
  constructor(cluster, rates) {
    this.cluster = cluster;
    this.rates = rates;
    this.run = Math.random().toString(36).slice(2, 8);
    /** @type {Sample[]} */
    this.samples = [];
    // Load with no fault yet (faults.mjs).
    this.phase = 'warm-up';
    /** @type {Array<{ name: string, startedAt: number, endedAt: number | null, note?: Record<string, unknown> }>} */
    this.phases = [{ name: 'warm-up', startedAt: Date.now(), endedAt: null }];
    /** lead id -> phase */
    this.leads = new Map();
    /** registered email -> phase */
    this.registrations = new Map();
    /** paid order id -> phase */
    this.payments = new Map();
    this.counter = 0;
    /** Requests not sent because 2000 were already waiting for an answer. */
    this.skipped = 0;
    this.stopped = false;
    /** @type {Promise<void>[]} */
    this.loops = [];
    /** @type {Set<Promise<void>>} */
    this.inFlight = new Set();
  }

  get url() {
    return this.cluster.url;
  }

  /** A public profile to view and buyers to pay with, made before the load starts. */
  async prepare(buyers = 4) {
    const system = /** @type {import('../../../libs/testing/dist/src/index.js').TestSystem} */ (this.cluster.system);
    const owner = await registerOwner(system, {
      username: `show${this.run}`,
      firstName: 'Thabo',
      lastName: 'Mokoena',
      email: `show${this.run}@example.co.za`,
    });
    await setMembership(system, owner.username, 'DigiPlatinum');
    const saved = await owner.client.request('/api/profile', {
      method: 'PUT',
      body: { document: { ...ProfileDefaults, title: 'Sales Director', businessName: 'Mokoena Solar', tel: '082 123 4567' } },
    });
    if (saved.status !== 200) throw new Error(`could not save the viewed profile: ${saved.status} ${JSON.stringify(saved.body)}`);
    this.viewed = owner.username;
    this.buyers = [];
    for (let i = 0; i < buyers; i++) {
      this.buyers.push(
        await registerOwner(
          system,
          { username: `buyer${this.run}${i}`, firstName: 'Ayanda', lastName: 'Dlamini', email: `buyer${this.run}${i}@example.co.za` },
          { verify: false },
        ),
      );
    }
  }

  /** Starts every generator; each sends at its rate until `stop()`. */
  start() {
    const loop = async (kind, rate, send) => {
      if (!(rate > 0)) return;
      const t0 = Date.now();
      for (let i = 0; !this.stopped; i++) {
        const wait = t0 + (i * 1000) / rate - Date.now();
        // Always yield: a generator behind its schedule must not starve the event loop (and with it the faults).
        await sleep(Math.max(0, wait));
        if (this.stopped) break;
        // A system that stops answering is not buried under more requests than the machine can hold open.
        if (this.inFlight.size >= 2000) {
          this.skipped += 1;
          continue;
        }
        const phase = this.phase;
        const started = Date.now();
        const p = send(i, phase)
          .catch((error) => ({
            status: 0,
            reason: error?.name === 'TimeoutError' ? 'timed out' : String(error?.cause?.code ?? error?.message),
          }))
          .then((answer) => {
            const { status, reason } = typeof answer === 'number' ? { status: answer, reason: undefined } : answer;
            this.samples.push({ kind, phase, at: started, status, ...(reason ? { reason } : {}), ms: Date.now() - started });
          })
          .finally(() => this.inFlight.delete(p));
        this.inFlight.add(p);
      }
    };
    this.loops = [
      loop('lead', this.rates.leads, (i, phase) => this.lead(i, phase)),
      loop('registration', this.rates.registrations, (i, phase) => this.registration(i, phase)),
      loop('view', this.rates.views, () => this.view()),
      loop('payment', this.rates.payments, (i, phase) => this.payment(i, phase)),
    ];
  }

  /** Ends the current phase and starts the next one (requests sent from now on count for it). */
  mark(name) {
    const now = Date.now();
    this.phases[this.phases.length - 1].endedAt = now;
    this.phases.push({ name, startedAt: now, endedAt: null });
    this.phase = name;
  }

  note(values) {
    Object.assign((this.phases[this.phases.length - 1].note ??= {}), values);
  }

  async stop() {
    this.stopped = true;
    await Promise.all(this.loops);
    await Promise.all([...this.inFlight]);
    this.phases[this.phases.length - 1].endedAt = Date.now();
  }

  async post(path, body, headers = {}) {
    return fetch(`${this.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', origin: this.url, ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  }

  async lead(i, phase) {
    const n = ++this.counter;
    const res = await this.post('/api/enquiries/call-back', {
      name: `Cluster Lead ${i}`,
      email: `lead${this.run}${n}@example.co.za`,
      number: `08${String(10_000_000 + (n % 90_000_000)).slice(-8)}`,
    });
    const answer = await outcome(res);
    if (res.status === 202) {
      const id = /** @type {any} */ (safeJson(answer.text))?.id;
      if (id) this.leads.set(id, phase);
    }
    return answer;
  }

  async registration(i, phase) {
    const email = `reg${this.run}x${i}@example.co.za`;
    const res = await this.post('/api/accounts', {
      username: `reg${this.run}x${i}`,
      firstName: 'Lerato',
      lastName: 'Nkosi',
      email,
      password: PASSWORD,
    });
    const answer = await outcome(res);
    if (res.status === 201) this.registrations.set(email, phase);
    return answer;
  }

  async view() {
    const res = await fetch(`${this.url}/${this.viewed}?src=qr`, {
      headers: { 'user-agent': BROWSER },
      signal: AbortSignal.timeout(15_000),
    });
    return outcome(res);
  }

  /** Checkout: the order, PayFast's page, Pay (the simulator posts the ITN to the gateway through the load balancer). */
  async payment(i, phase) {
    const buyer = this.buyers[i % this.buyers.length];
    const checkout = await buyer.client.request('/api/orders', { body: { items: [{ id: 'pvc-card', colour: 'White', quantity: 1 }] } });
    if (!checkout.body?.redirectUrl)
      return checkout.status >= 200 && checkout.status < 300
        ? 1000 + checkout.status
        : { status: checkout.status, reason: checkout.body?.code ?? undefined };
    const orderId = checkout.body.order?.id ?? null;
    const page = await fetch(checkout.body.redirectUrl, { signal: AbortSignal.timeout(15_000) });
    const html = (await page.text()).replace(/&#x2F;|&#47;/g, '/');
    const action = /\/eng\/process\/([\w-]+)/.exec(html)?.[1];
    if (!action) return 1000 + page.status;
    const system = /** @type {any} */ (this.cluster.system);
    const paid = await fetch(`${system.payfastUrl}/eng/process/${action}/pay`, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(20_000),
    });
    await paid.arrayBuffer().catch(() => undefined);
    if (paid.status !== 303 && paid.status !== 200) return 2000 + paid.status;
    // The simulator sends the payer back whatever the gateway answered its ITN, and says what that answer was: the
    // payment is ours (accepted, to be recorded) only when the gateway took the ITN; a refused one (503 while a fault
    // lasts) is that request's failure, as PayFast would see it.
    const itnStatus = Number(paid.headers.get('x-sim-itn-status'));
    if (itnStatus !== 200) return { status: Number.isInteger(itnStatus) ? itnStatus : 0, reason: 'ITN refused' };
    if (orderId) this.payments.set(orderId, phase);
    return 201;
  }

  /**
   * Waits until everything accepted was handled (stored and emailed, orders paid) or `timeoutMs` passed, then counts
   * per phase: requests answered, failures by status, accepted-but-lost, duplicates, time to recover.
   */
  async account(timeoutMs = 180_000) {
    const system = /** @type {any} */ (this.cluster.system);
    const sql = (text, params = []) => system.sql(text, params);
    const deadline = Date.now() + timeoutMs;
    let verifyMails = [];
    let drainedAfterMs = null;
    const start = Date.now();
    for (;;) {
      try {
        const emailedRefs = (await system.mail.list(SALES_INBOX))
          .map((m) => /Reference: ([0-9a-f-]{36})/.exec(m.text)?.[1])
          .filter(Boolean);
        verifyMails = (await system.mail.list()).filter(
          (m) => /Verify your email/.test(m.subject) && m.to.some((t) => t.startsWith('reg')),
        );
        const emailed = new Set(emailedRefs);
        const verified = new Set(verifyMails.flatMap((m) => m.to.map((t) => t.toLowerCase())));
        const paidIds = [...this.payments.keys()];
        const paid = paidIds.length
          ? Number(
              (
                await sql("SELECT count(*)::int AS n FROM orders.orders WHERE id = ANY($1::uuid[]) AND status <> 'awaiting-payment'", [
                  paidIds,
                ])
              )[0].n,
            )
          : 0;
        if (
          [...this.leads.keys()].every((id) => emailed.has(id)) &&
          [...this.registrations.keys()].every((e) => verified.has(e)) &&
          paid === paidIds.length
        ) {
          drainedAfterMs = Date.now() - start;
          break;
        }
      } catch {
        /* a check while a server is away: retry */
      }
      if (Date.now() > deadline) break;
      await sleep(1000);
    }
    await sleep(3000); // anything sent twice arrives late
    const salesMails = await system.mail.list(SALES_INBOX);
    verifyMails = (await system.mail.list()).filter((m) => /Verify your email/.test(m.subject) && m.to.some((t) => t.startsWith('reg')));
    // A copy is either one more message (a Message-ID not seen for that email yet: the email was made twice) or the same
    // message again (SMTP has no exactly-once send: a worker killed after the relay's reply and before it recorded the
    // send sends it once more, with the same Message-ID; docs/reliability.md).
    /** @param {Array<[string, string | null]>} pairs key and Message-ID of each copy */
    const copies = (pairs) => {
      const ids = new Map();
      for (const [key, id] of pairs) ids.set(key, [...(ids.get(key) ?? []), id]);
      return ids;
    };
    const leadCopies = copies(
      salesMails.map((m) => [/Reference: ([0-9a-f-]{36})/.exec(m.text)?.[1], m.messageId ?? null]).filter(([ref]) => Boolean(ref)),
    );
    const verifyCopies = copies(verifyMails.flatMap((m) => m.to.map((t) => [t.toLowerCase(), m.messageId ?? null])));
    /** Copies beyond the first, split by whether their Message-ID is new. */
    const extra = (map, keys) => {
      let distinct = 0;
      let sameMessageId = 0;
      for (const key of keys) {
        const ids = map.get(key) ?? [];
        const unique = new Set(ids).size;
        distinct += Math.max(0, unique - 1);
        sameMessageId += ids.length - unique;
      }
      return { distinct, sameMessageId };
    };
    const storedLeads = new Set((await sql('SELECT id::text AS id FROM orders.enquiries')).map((r) => r.id));
    const accounts = new Set((await sql('SELECT lower(email) AS e FROM identity.accounts')).map((r) => r.e));
    const paidOrders = new Set(
      this.payments.size
        ? (
            await sql("SELECT id::text AS id FROM orders.orders WHERE id = ANY($1::uuid[]) AND status <> 'awaiting-payment'", [
              [...this.payments.keys()],
            ])
          ).map((r) => r.id)
        : [],
    );
    // Failures by the phase they failed in (a quiet phase's request still waiting when a fault began is that fault's).
    const failedIn = failuresByPhase(this.phases, this.samples);
    const report = [];
    for (const phase of this.phases) {
      const samples = this.samples.filter((s) => s.phase === phase.name);
      const { failures, lastAnsweredAt, lastSentAt } = /** @type {import('./accounting.mjs').PhaseFailures} */ (failedIn.get(phase.name));
      const since = (at) => (at === null ? 0 : Math.round((at - phase.startedAt) / 100) / 10);
      const inPhase = (map) => [...map].filter(([, p]) => p === phase.name).map(([k]) => k);
      const leads = inPhase(this.leads);
      const regs = inPhase(this.registrations);
      const pays = inPhase(this.payments);
      report.push({
        phase: phase.name,
        seconds: Math.round(((phase.endedAt ?? Date.now()) - phase.startedAt) / 100) / 10,
        answered: samples.filter((s) => s.status > 0).length,
        sent: samples.length,
        byKind: Object.fromEntries(['lead', 'registration', 'view', 'payment'].map((k) => [k, samples.filter((s) => s.kind === k).length])),
        failures,
        // Answered requests' time in ms by kind (p50, p99, max): a slow start shows here before it becomes a 503.
        latencyMs: Object.fromEntries(
          ['lead', 'registration', 'view', 'payment'].flatMap((k) => {
            const ms = samples.filter((s) => s.kind === k && s.status > 0).map((s) => s.ms);
            return ms.length > 0 ? [[k, percentiles(ms)]] : [];
          }),
        ),
        http500: samples.filter((s) => s.status === 500).length,
        lost: {
          leadsNotStored: leads.filter((id) => !storedLeads.has(id)).length,
          leadsNotEmailed: leads.filter((id) => !leadCopies.has(id)).length,
          registrationsNotStored: regs.filter((e) => !accounts.has(e)).length,
          registrationsNotEmailed: regs.filter((e) => !verifyCopies.has(e)).length,
          paymentsNotRecorded: pays.filter((id) => !paidOrders.has(id)).length,
        },
        // Emails made twice (a new Message-ID): never allowed.
        duplicates: {
          leadEmails: extra(leadCopies, leads).distinct,
          verificationEmails: extra(verifyCopies, regs).distinct,
        },
        // The same message delivered again after a worker was killed mid-send.
        resentSameMessageId: {
          leadEmails: extra(leadCopies, leads).sameMessageId,
          verificationEmails: extra(verifyCopies, regs).sameMessageId,
        },
        // From the fault until the answer of the last request that failed because of it; 0 when none failed.
        recoverySeconds: since(lastAnsweredAt),
        // From the fault until that request was sent: a request sent early that waited out its time-out (5 s) counts
        // to its answer above; this says when the system last refused new work.
        lastFailedSentSeconds: since(lastSentAt),
        ...(phase.note ? { note: phase.note } : {}),
      });
    }
    return {
      skippedWhileOverloaded: this.skipped,
      drainedAfterSeconds: drainedAfterMs === null ? null : Math.round(drainedAfterMs / 100) / 10,
      phases: report,
    };
  }
}
