import { describe, expect, it } from 'vitest';
import { STUDY_PACKAGE_VERSION } from './index.ts';

describe('@cdms/study', () => {
  it('exports its version', () => {
    expect(STUDY_PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
