// Prettier, set to the style the code is written in: single quotes, semicolons, trailing
// commas, parentheses around every arrow parameter. The width is wide because lines are: on
// src/, 160 changes fewest lines of the widths that still wrap the longest (120: 3,500; 140:
// 1,950; 160: 1,240; 180: 840), and a 160-column line still fits a split editor.
/** @type {import('prettier').Config} */
export default {
  printWidth: 160,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
  semi: true,
};
