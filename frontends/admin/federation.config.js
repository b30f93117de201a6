// Federation settings of the admin remote. The shell mounts './AdminApp' at /admin/*.
module.exports = {
  name: 'admin',
  exposes: {
    './AdminApp': './src/AdminApp.tsx',
  },
};
