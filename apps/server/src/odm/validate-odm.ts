import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { OdmVersion } from './export-odm.ts';

/**
 * For tests: xmllint's verdict on an exported file against the official ODM schema of its version
 * (for 1.3.2, with the CDMS extension's schema).
 */

// The official schemas: the project's shared copy beside the repository (<X>/main and <X>/shared/odm
// on the developers' machines; a git worktree further down, <X>/wt/name, finds it one level up more),
// else the copy vendored in the repository (vendor/cdisc-odm, for a clone anywhere else, such as a CI
// runner's work directory). odm-schemas.test.ts holds the two copies equal.
const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
export const vendoredOdmSchemas = path.join(repositoryRoot, 'vendor', 'cdisc-odm');
/** The shared copy of the schemas beside the repository or above it, if there is one. */
export function sharedOdmSchemas(): string | undefined {
  for (let directory = path.dirname(repositoryRoot); ; directory = path.dirname(directory)) {
    const candidate = path.join(directory, 'shared', 'odm');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(directory) === directory) return undefined;
  }
}
function findOdmSchemas(): string {
  return sharedOdmSchemas() ?? vendoredOdmSchemas;
}
export const odmSchemas = findOdmSchemas();
// 1.3.2 exports carry the design's CDMS extension: the official schema with the extension's groups
// filled in (packages/study/odm; it redefines the vendored copy, byte for byte the shared one).
const schemaOf: Record<OdmVersion, string> = {
  '1.3.2': path.join(repositoryRoot, 'packages', 'study', 'odm', 'odm-1.3.2-cdms.xsd'),
  '2.0': path.join(odmSchemas, 'schema-2.0', 'ODM.xsd'),
};
/** xmllint's verdict on a file against an ODM schema: status 0 and "validates", or the errors. */
export function validateOdmFile(file: string, version: OdmVersion) {
  const result = spawnSync('xmllint', ['--nonet', '--noout', '--schema', schemaOf[version], file], {
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}
