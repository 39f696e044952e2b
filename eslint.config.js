// Flat config: typescript-eslint's recommended rules plus a few that catch real bugs in async code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Imports that go one way. Data flows pipeline -> change log -> indexer -> API and the parts meet in
 * runtime/ and schemas/: the pipeline imports nothing downstream, the indexer and the API nothing of the
 * pipeline, schemas/ none of the others, and only tests import test/. Relative imports name top-level
 * folders as `../(../)*folder/`; dynamic import() is checked too.
 */
function importsOnlyOneWay(files, forbidden, why) {
  const folders = `(${forbidden.join('|')})`;
  const message = `${why} (eslint.config.js: importsOnlyOneWay)`;
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: `^(\\.\\./)+${folders}/`, message }] }],
      'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/^(\\.\\.\\/)+${folders}\\//]`, message }],
    },
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  importsOnlyOneWay(['api/**/*.ts'], ['pipeline', 'test', 'bench'], 'The API reads what the pipeline wrote through runtime/ and schemas/, never pipeline/.'),
  importsOnlyOneWay(['indexer/**/*.ts'], ['pipeline', 'api', 'test', 'bench'], 'The indexer reads the change log through runtime/, never pipeline/ or api/.'),
  importsOnlyOneWay(['pipeline/**/*.ts'], ['api', 'indexer', 'test', 'bench'], 'The pipeline knows nothing downstream of the change log.'),
  importsOnlyOneWay(['schemas/**/*.ts'], ['api', 'indexer', 'pipeline', 'runtime', 'test', 'bench'], 'schemas/ is imported by every part and imports none of them.'),
  importsOnlyOneWay(['runtime/**/*.ts'], ['test', 'bench'], 'Service code does not import tests or benchmarks.'),
  importsOnlyOneWay(['bench/**/*.ts'], ['test'], 'Benchmarks share helpers with tests through runtime/ or bench/, not test/.'),
);
