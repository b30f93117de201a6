// Federation settings of the purchase remote. The shell mounts './PurchaseList' at /purchaseList/*,
// './Purchase' at /purchase/*, './PurchaseProducts' at /purchaseProducts/* and './Distributors'
// at /distributor/* (shell/src/remoteAreas.ts).
module.exports = {
  name: 'purchase',
  exposes: {
    './PurchaseList': './src/PurchaseListArea.tsx',
    './Purchase': './src/PurchaseArea.tsx',
    './PurchaseProducts': './src/PurchaseProductsArea.tsx',
    './Distributors': './src/DistributorsArea.tsx',
  },
};
