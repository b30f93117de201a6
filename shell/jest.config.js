module.exports = require('@bahi/jest-config')(__dirname, {
  moduleNameMapper: { '\\.css$': '<rootDir>/test/style-stub.js' },
});
