// Components import their CSS for webpack; under jest a stylesheet is an empty module.
module.exports = require('@bahi/jest-config')(__dirname, { moduleNameMapper: { '\\.css$': '<rootDir>/jest.style-stub.js' } });
