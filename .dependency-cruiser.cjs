// The layers of docs/ARCHITECTURE.md, checked by `npm run lint` (dependency-cruiser). Cycles between the
// server's folders are found by scripts/check-server-folder-cycles.mjs from this tool's JSON: the
// tool's own `circular` rule sees cycles of files, and two folders can lean on each other through
// files that form no file cycle.
//
// Tests (*.test.ts, *.checks.ts) are left out of the layer rules: they may reach across layers to
// set up a case.
const TESTS = '\\.(test|checks)\\.tsx?$';
const SERVER = '^apps/server/src/';

module.exports = {
  forbidden: [
    {
      name: 'server-db-imports-no-feature',
      comment:
        'db/ is the bottom layer: it holds the database, its migrations and its transaction, and knows no feature.',
      severity: 'error',
      from: { path: `${SERVER}db/`, pathNot: TESTS },
      to: { path: SERVER, pathNot: `${SERVER}(db/|config\\.ts$)` },
    },
    {
      name: 'server-http-imports-no-feature',
      comment: 'http/ (errors, languages, input policy) sits under every route; it knows no feature.',
      severity: 'error',
      from: { path: `${SERVER}http/`, pathNot: TESTS },
      to: { path: SERVER, pathNot: `${SERVER}(http/|db/|config\\.ts$)` },
    },
    {
      name: 'server-auth-imports-no-feature',
      comment:
        'auth/ (who is asking, may they) sits under every feature; it builds on db, http, audit and rate-limit only.',
      severity: 'error',
      from: { path: `${SERVER}auth/`, pathNot: TESTS },
      to: {
        path: SERVER,
        pathNot: `${SERVER}(auth/|db/|http/|audit/|rate-limit/|config\\.ts$|app-context\\.ts$)`,
      },
    },
    {
      name: 'server-features-import-no-entry-point',
      comment: 'app.ts, main.ts and cli/ put the server together; nothing they put together imports them.',
      severity: 'error',
      from: { path: SERVER, pathNot: [TESTS, `${SERVER}(app|main)\\.ts$`, `${SERVER}cli/`] },
      to: { path: `${SERVER}((app|main)\\.ts$|cli/)` },
    },
    {
      name: 'web-feature-imports-no-other-feature',
      comment:
        'A web feature does not import another feature; what two features share lives in components/ or lib/.',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/', pathNot: TESTS },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-shared-code-imports-no-feature',
      comment: 'components/, lib/ and i18n/ are shared by the features and import none of them.',
      severity: 'error',
      from: { path: '^apps/web/src/(components|lib|i18n)/', pathNot: TESTS },
      to: { path: '^apps/web/src/features/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^packages/'] },
    exclude: { path: ['node_modules', '/dist/'] },
    // TypeScript 7 has no compiler API for the tool to parse with; swc parses the sources instead,
    // type-only imports included (a type import is a dependency too).
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.json'],
    },
  },
};
