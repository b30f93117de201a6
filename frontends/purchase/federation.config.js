// Federation settings of the purchase remote. The shell mounts './PurchaseList' at /purchaseList/*,
// './Purchase' at /purchase/*, './PurchaseProducts' at /purchaseProducts/*, './Distributors'
// at /distributor/* and './Reorder' at /reorderList/* (shell/src/remoteAreas.ts).
module.exports = {
  name: 'purchase',
  exposes: {
    './PurchaseList': './src/PurchaseListArea.tsx',
    './Purchase': './src/PurchaseArea.tsx',
    './PurchaseProducts': './src/PurchaseProductsArea.tsx',
    './Distributors': './src/DistributorsArea.tsx',
    './Reorder': './src/reorder/ReorderArea.tsx',
  },
};
