// Federation settings of the reports remote (managers' returns and reports). The shell mounts
// './Reports' at /reports/* (shell/src/remoteAreas.ts): the dashboard, the reports and the GST returns.
module.exports = {
  name: 'reports',
  exposes: {
    './Reports': './src/ReportsArea.tsx',
  },
};
