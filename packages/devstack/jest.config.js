module.exports = require('@bahi/jest-config')(__dirname);
