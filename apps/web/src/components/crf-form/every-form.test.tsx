import { getStudyIndex, sampleSubject, tmPerforationStudy } from '@cdms/study';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderForm } from './test-utils.tsx';

/**
 * Issue "Study definition and form engine", done when: every form of every visit renders from the
 * definition in Korean and English. Each (visit, form) pair of the schedule is rendered with the
 * sample subject's data, and every visible section's title must be on screen in that language.
 */
const schedule = getStudyIndex(tmPerforationStudy).schedule;

afterEach(() => cleanup());

describe('every form of every visit', () => {
  it('covers the whole schedule', () => {
    expect(schedule.length).toBeGreaterThan(50);
  });

  for (const language of ['ko', 'en'] as const) {
    it(`renders in ${language}`, () => {
      for (const layout of schedule) {
        const { unmount } = renderForm(tmPerforationStudy, layout.visitKey, layout.form.key, {
          data: sampleSubject(),
          language,
        });
        const title = layout.sections[0]?.label[language] as string;
        expect(
          screen.getAllByText(title, { exact: false }).length,
          `${layout.visitKey}.${layout.form.key}`,
        ).toBeGreaterThan(0);
        unmount();
      }
    }, 60_000);
  }
});
