// What the fault run counts of the requests that failed, per phase (load.mjs reports it; unit-tested on its own).

/** The phases with no fault in them: `warm-up` (before the first) and `after` (after the last; faults.mjs). */
export const QUIET = new Set(['warm-up', 'after']);

/**
 * @typedef {{ kind: string, phase: string, at: number, status: number, reason?: string, ms: number }} Sample
 * @typedef {{ name: string, startedAt: number }} Phase
 * @typedef {{ failures: Record<string, number>, lastAnsweredAt: number | null, lastSentAt: number | null }} PhaseFailures
 */

/**
 * The failed requests (status 0 for no answer, or not 2xx/3xx) by the phase they failed in, counted by kind and
 * status (and reason), with the last one's answer time and send time. A request sent in a phase without a fault (the
 * warm-up, the time after the last) that was still waiting for its answer when the next phase began failed in that
 * phase: its fault is what it met (a request in an orders replica's hands when that replica's NATS server was killed
 * got no answer). A request sent during a fault stays that fault's, however long its answer took.
 * @param {Phase[]} phases in order
 * @param {Sample[]} samples
 * @returns {Map<string, PhaseFailures>}
 */
export function failuresByPhase(phases, samples) {
  /** @type {Map<string, PhaseFailures>} */
  const byPhase = new Map(phases.map((p) => [p.name, { failures: {}, lastAnsweredAt: null, lastSentAt: null }]));
  for (const s of samples) {
    if (s.status >= 200 && s.status < 400) continue;
    const i = phases.findIndex((p) => p.name === s.phase);
    if (i < 0) continue;
    const next = phases[i + 1];
    const phase = QUIET.has(phases[i].name) && next && s.at + s.ms > next.startedAt ? next.name : phases[i].name;
    const entry = /** @type {PhaseFailures} */ (byPhase.get(phase));
    const key = `${s.kind} ${s.status === 0 ? 'no answer' : s.status}${s.reason ? ` ${s.reason}` : ''}`;
    entry.failures[key] = (entry.failures[key] ?? 0) + 1;
    entry.lastAnsweredAt = Math.max(entry.lastAnsweredAt ?? 0, s.at + s.ms);
    entry.lastSentAt = Math.max(entry.lastSentAt ?? 0, s.at);
  }
  return byPhase;
}
