export default [
  { ignores: ['js/vitest/**', 'js/node-test/**', 'css/**', 'sub/**'] },
  {
    files: ['js/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', test: 'readonly', expect: 'readonly' } },
    rules: { 'no-unused-vars': 'error', eqeqeq: 'warn' }
  }
]
