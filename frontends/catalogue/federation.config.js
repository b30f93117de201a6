// Federation settings of the catalogue remote. The shell mounts './Products' at /product/*,
// './ProductItems' at /productItem/* and './Categories' at /productsCatagory/*.
module.exports = {
  name: 'catalogue',
  exposes: {
    './Products': './src/ProductsApp.tsx',
    './ProductItems': './src/ProductItemsApp.tsx',
    './Categories': './src/CategoriesApp.tsx',
  },
};
