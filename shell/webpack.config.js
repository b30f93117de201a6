const { hostConfig } = require('@bahi/webpack-config');
const federation = require('./federation.config');

module.exports = hostConfig({ dir: __dirname, title: 'Bahi', ...federation });
