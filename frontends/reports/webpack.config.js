const { remoteConfig } = require('@bahi/webpack-config');
const federation = require('./federation.config');

module.exports = remoteConfig({ dir: __dirname, ...federation });
