declare module 'eslint-plugin-i18next/lib/rules/no-literal-string' {
  import type { Rule } from 'eslint';
  const rule: Rule.RuleModule;
  export default rule;
}
