// age-encryption and its @noble/@scure parts ship only as ES modules: swc turns them into CommonJS for jest.
module.exports = require('@bahi/jest-config')(__dirname, {
  transformIgnorePatterns: ['/node_modules/(?!(intl-messageformat|@formatjs|age-encryption|@noble|@scure)/)'],
});
