module.exports = require('../../jest.preset.cjs')(__dirname, 'web-e2e');
