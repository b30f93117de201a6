// Federation settings of the sales remote. The shell mounts each exposed module at its area
// (shell/src/remoteAreas.ts): './Clients' at /clientList/*. The cart, estimates and sales list
// join here as './Cart', './Estimates' and './SalesList'.
module.exports = {
  name: 'sales',
  exposes: {
    './Clients': './src/clients/ClientsArea.tsx',
    './Cart': './src/cart/CartArea.tsx',
    './Estimates': './src/estimates/EstimatesArea.tsx',
    './SalesList': './src/salesList/SalesListArea.tsx',
  },
};
