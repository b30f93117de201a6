// Federation settings of the payments remote. The shell mounts './ReceivePayment' at
// /payments/receivePayment/*, './GivePayment' at /payments/givePayment/* and './Expenses' at
// /payments/expenses/* (shell/src/remoteAreas.ts).
module.exports = {
  name: 'payments',
  exposes: {
    './ReceivePayment': './src/ReceivePaymentArea.tsx',
    './GivePayment': './src/GivePaymentArea.tsx',
    './Expenses': './src/ExpensesArea.tsx',
  },
};
