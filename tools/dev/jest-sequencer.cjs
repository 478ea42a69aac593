// Unit tests first, then whole-system (integration, e2e) tests, then the browser: fast feedback before slow.
const Sequencer = require('@jest/test-sequencer').default;

const rank = (path) => (path.includes('.browser.') ? 2 : /\.(integration|e2e|medium)\./.test(path) ? 1 : 0);

class UnitFirstSequencer extends Sequencer {
  /** @override @param {import('@jest/test-result').Test[]} tests */
  sort(tests) {
    return [...tests].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  }
}

module.exports = UnitFirstSequencer;
