// Federation settings of the payments remote. The shell mounts './ReceivePayment' at
// /payments/receivePayment/* and './GivePayment' at /payments/givePayment/* (shell/src/remoteAreas.ts).
module.exports = {
  name: 'payments',
  exposes: {
    './ReceivePayment': './src/ReceivePaymentArea.tsx',
    './GivePayment': './src/GivePaymentArea.tsx',
  },
};
