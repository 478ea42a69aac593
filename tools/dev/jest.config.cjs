// The scripts here are plain .mjs, so that `npm start` and `npm test` run before anything is installed; what can be
// pure is kept in its own module (select-servers.mjs) and tested from TypeScript like every other project.
module.exports = require('../../jest.preset.cjs')(__dirname, 'dev');
