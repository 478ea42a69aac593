// Stands in for a stylesheet a component imports (jest.config.cjs): the unit lane's DOM tests render without CSS.
module.exports = {};
