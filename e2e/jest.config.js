// Browser end-to-end tests: one real stack (embedded MongoDB, nats-server, identity, gateway
// serving the built shell and remotes) and one Chromium per test file, run one file at a time.
module.exports = require('@bahi/jest-config')(__dirname, {
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 120_000,
  maxWorkers: 1,
});
