const config = require('../../jest.preset.cjs')(__dirname, 'web');

// The components' stylesheets (`import '../teams.css'`) are Vite's; a DOM test (happy-dom) renders without them.
config.moduleNameMapper = { '\\.css$': '<rootDir>/src/testing/no-styles.cjs', ...config.moduleNameMapper };

module.exports = config;
