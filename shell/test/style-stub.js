// Stylesheets mean nothing to unit tests in Node.
module.exports = {};
