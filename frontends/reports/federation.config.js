// Federation settings of the reports remote (managers' returns and reports). The shell mounts
// './Reports' at /reports/* (shell/src/remoteAreas.ts); only the GST page is there so far.
module.exports = {
  name: 'reports',
  exposes: {
    './Reports': './src/ReportsArea.tsx',
  },
};
