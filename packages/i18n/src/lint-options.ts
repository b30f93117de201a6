// eslint-plugin-i18next no-literal-string as the catalogue check runs it: text between JSX tags,
// strings written inside JSX expressions, and the attributes a person reads or hears.

/** Props whose text is shown or read out: the HTML ones and ui-kit's `label`. */
export const VISIBLE_ATTRIBUTES = ['placeholder', 'title', 'aria-label', 'alt', 'label'];

export const LITERAL_STRING_OPTIONS = {
  // jsx-only: JSX text and string literals inside JSX (a `{cond ? 'Yes' : 'No'}` too), not module constants.
  mode: 'jsx-only',
  'jsx-components': { include: [], exclude: ['Trans'] },
  'jsx-attributes': { include: VISIBLE_ATTRIBUTES, exclude: [] },
  words: {
    exclude: [
      // Digits and punctuation only, and all-capitals codes (GST, MRP, UPI) as shops write them.
      '[0-9!-/:-@[-`{-~\\s₹×·•…–—©%]+',
      '[A-Z0-9_-]+',
      // Identifier-like text (no capitals, no spaces): class names, field keys, routes, test ids.
      '[a-z0-9_.:/#?&=@-]+',
      // One sign on its own: an arrow, a brand mark, a bullet.
      '\\s*\\S\\s*',
      // Arrows and shapes used as icons.
      '[\\s←-⇿▲-◿]+',
    ],
  },
  callees: {
    exclude: ['i18n(ext)?\\.t', 't', 'require', 'addEventListener', 'removeEventListener', 'getElementById', 'querySelector', 'querySelectorAll', 'includes', 'indexOf', 'endsWith', 'startsWith', 'classNames', 'cx', 'clsx', 'useTranslation', 'navigate', 'Intl\\..*', 'toLocaleString', 'format.*', 'api\\..*', 'set.*', 'localStorage\\..*'],
  },
  'object-properties': { include: [], exclude: ['[A-Z_-]+', 'className', 'key', 'to', 'type', 'variant', 'name', 'id', 'style'] },
  'class-properties': { include: [], exclude: ['displayName'] },
  message: 'disallow literal string',
  'should-validate-template': false,
};
