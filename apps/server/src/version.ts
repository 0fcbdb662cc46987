import fs from 'node:fs';
import path from 'node:path';

interface RootPackageJson {
  version: string;
  cdms?: { releaseDate?: string };
}

const rootPackage = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
) as RootPackageJson;

/** The product version and release date, from the root package.json (one place to bump). */
export const productVersion = rootPackage.version;
export const productReleaseDate = rootPackage.cdms?.releaseDate ?? '';
