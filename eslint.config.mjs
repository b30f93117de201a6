// One lint config for every workspace (ESLint 9 flat config, found from any workspace folder).
import reactHooks from 'eslint-plugin-react-hooks';
import i18next from 'eslint-plugin-i18next';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/test-results/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    // The two classic hook rules; the React Compiler rules of the plugin's newer presets are not used.
    files: ['**/*.tsx'],
    // i18next: loaded (off) so that a `// eslint-disable-next-line i18next/no-literal-string` is valid here;
    // the catalogue check in packages/i18n (npm test) runs the rule.
    plugins: { 'react-hooks': reactHooks, i18next },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'i18next/no-literal-string': 'off',
    },
  },
);
