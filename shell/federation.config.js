// Federation settings of the host. No static remotes: they come from /remotes.json at run time.
const path = require('node:path');

module.exports = {
  name: 'shell',
  // errorLoadRemote -> a fallback module, so one remote that is down breaks nothing else.
  runtimePlugins: [path.resolve(__dirname, 'src/federation/fallbackPlugin.ts')],
};
