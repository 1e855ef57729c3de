import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'dist/',
      '.dist-tmp/',
      'node_modules/',
      'out/',
      'coverage/',
      'test-support/gate-sample/',
      // the eval dataset's cases: other projects' code, kept as it was
      'eval/cases/'
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }
      ]
    }
  }
)
