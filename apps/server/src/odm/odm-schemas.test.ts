import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedOdmSchemas, vendoredOdmSchemas } from './validate-odm.ts';

/** Every file under a directory, as paths relative to it. */
function filesUnder(directory: string): string[] {
  return fs
    .readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('the vendored ODM schemas', () => {
  const shared = sharedOdmSchemas();

  it('hold both versions with their entry points', () => {
    expect(fs.existsSync(path.join(vendoredOdmSchemas, 'schema-1.3.2', 'ODM1-3-2.xsd'))).toBe(true);
    expect(fs.existsSync(path.join(vendoredOdmSchemas, 'schema-2.0', 'ODM.xsd'))).toBe(true);
  });

  it.runIf(shared !== undefined)('are byte for byte the shared copy beside the repository', () => {
    for (const version of ['schema-1.3.2', 'schema-2.0', 'samples-1.3.2']) {
      const sharedDirectory = path.join(shared as string, version);
      const vendoredDirectory = path.join(vendoredOdmSchemas, version);
      expect(filesUnder(vendoredDirectory)).toEqual(filesUnder(sharedDirectory));
      for (const file of filesUnder(sharedDirectory)) {
        expect(
          fs
            .readFileSync(path.join(vendoredDirectory, file))
            .equals(fs.readFileSync(path.join(sharedDirectory, file))),
          file,
        ).toBe(true);
      }
    }
  });
});
