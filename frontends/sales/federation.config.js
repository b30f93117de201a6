// Federation settings of the sales remote. The shell mounts each exposed module at its area
// (shell/src/remoteAreas.ts): './Cart' at /, './Estimates' at /estimateList/*,
// './SalesList' at /salesList/* and './Clients' at /clientList/*.
module.exports = {
  name: 'sales',
  exposes: {
    './Clients': './src/clients/ClientsArea.tsx',
    './Cart': './src/cart/CartArea.tsx',
    './Estimates': './src/estimates/EstimatesArea.tsx',
    './SalesList': './src/salesList/SalesListArea.tsx',
    // The cashier's register session (issue 29), at /register/*.
    './Register': './src/register/RegisterArea.tsx',
  },
};
