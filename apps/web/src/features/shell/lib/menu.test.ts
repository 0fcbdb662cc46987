import { describe, expect, it } from 'vitest';
import { chooseMenuType, heldMenuTypes, isCurrentLink, studyMenu, taskListMenu } from './menu.ts';

const params = (query: string) => new URLSearchParams(query);

describe('heldMenuTypes', () => {
  it('maps site roles to the PI menu and monitoring roles to the CRA menu', () => {
    expect(heldMenuTypes(['PI'])).toEqual(['PI']);
    expect(heldMenuTypes(['SI', 'CRC'])).toEqual(['PI']);
    expect(heldMenuTypes(['DM'])).toEqual(['CRA']);
    expect(heldMenuTypes(['ADMIN', 'CRA'])).toEqual(['CRA']);
    expect(heldMenuTypes(['CRA', 'PI'])).toEqual(['PI', 'CRA']);
    expect(heldMenuTypes([])).toEqual([]);
  });
});

describe('chooseMenuType', () => {
  it('follows the roles when no parameter is given', () => {
    expect(chooseMenuType(['PI'], params(''))).toBe('PI');
    expect(chooseMenuType(['CRA'], params(''))).toBe('CRA');
    expect(chooseMenuType(['CRA', 'PI'], params(''))).toBe('PI');
  });

  it('ignores a parameter asking for a menu the user does not hold', () => {
    expect(chooseMenuType(['PI'], params('type=CRA'))).toBe('PI');
    expect(chooseMenuType(['CRC'], params('menu-type=CRA'))).toBe('PI');
    expect(chooseMenuType(['DM'], params('type=PI&menu-type=PI'))).toBe('CRA');
    expect(chooseMenuType(['PI'], params('type=ADMIN'))).toBe('PI');
  });

  it('lets a user holding both sets pick one, `type` before `menu-type`', () => {
    const both = ['PI', 'CRA'] as const;
    expect(chooseMenuType(both, params('menu-type=CRA'))).toBe('CRA');
    expect(chooseMenuType(both, params('type=CRA&menu-type=PI'))).toBe('CRA');
    expect(chooseMenuType(both, params('type=PI&menu-type=CRA'))).toBe('PI');
  });

  it('falls back to `menu-type` when `type` names a set the user does not hold', () => {
    expect(chooseMenuType(['CRA'], params('type=PI&menu-type=CRA'))).toBe('CRA');
  });

  it('has no menu for a user without roles', () => {
    expect(chooseMenuType([], params('type=PI'))).toBeNull();
  });
});

describe('studyMenu', () => {
  it('gives the PI set: dashboard (with task alarm), subject list, notice, guideline', () => {
    const menu = studyMenu('PI', 7);
    expect(menu.map((entry) => entry.key)).toEqual(['dashboard', 'subjectList', 'notice', 'guideline']);
    expect(menu[0]?.children?.map((child) => child.to)).toEqual([
      '/dashboard/7?menu-type=PI',
      '/task-alarm/7?menu-type=PI',
    ]);
  });

  it('gives the CRA set: the PI entries and the ten monitoring entries', () => {
    const menu = studyMenu('CRA', 7, [], ['labPanel']);
    expect(menu.map((entry) => entry.key)).toEqual([
      'dashboard',
      'subjectList',
      'notice',
      'guideline',
      'alarmLog',
      'systemETraining',
      'query',
      'report',
      'sdv',
      'freezing',
      'summary',
      'lab',
      'data',
      'auditTrail',
    ]);
    expect(menu.find((entry) => entry.key === 'sdv')?.to).toBe('/sdv/7?menu-type=CRA');
    expect(menu.find((entry) => entry.key === 'auditTrail')?.to).toBe('/audit/7?menu-type=CRA');
    expect(studyMenu('PI', 7).map((entry) => entry.key)).not.toContain('auditTrail');
    expect(menu.find((entry) => entry.key === 'systemETraining')?.to).toBe(
      '/system-e-training/7?menu-type=CRA',
    );
  });

  it('gives every reader central monitoring after the dashboard, in either set', () => {
    for (const type of ['PI', 'CRA'] as const) {
      const menu = studyMenu(type, 7, ['subject.read']);
      expect(menu[1]).toMatchObject({ key: 'monitoring', to: `/monitoring/7?menu-type=${type}` });
    }
    expect(studyMenu('PI', 7, []).map((entry) => entry.key)).not.toContain('monitoring');
  });

  it('leaves the lab page out of a study whose design has no lab panel', () => {
    expect(studyMenu('CRA', 7, [], ['audiogram']).map((entry) => entry.key)).not.toContain('lab');
  });

  it('gives the review listings to those who may review (review.mark), after SDV', () => {
    const keys = studyMenu('CRA', 7, ['review.mark']).map((entry) => entry.key);
    expect(keys.indexOf('reviewListings')).toBe(keys.indexOf('sdv') + 1);
    expect(studyMenu('CRA', 7, []).map((entry) => entry.key)).not.toContain('reviewListings');
    expect(studyMenu('CRA', 7, ['review.mark']).find((entry) => entry.key === 'reviewListings')?.to).toBe(
      '/review/7?menu-type=CRA',
    );
  });

  it('adds the randomization page to the CRA set only for users who manage the lists', () => {
    const keeper = studyMenu('CRA', 7, ['subject.read', 'randomization.manage']);
    expect(keeper.at(-1)).toMatchObject({ key: 'randomization', to: '/randomization/7?menu-type=CRA' });
    expect(studyMenu('CRA', 7, ['subject.read', 'query.open']).map((entry) => entry.key)).not.toContain(
      'randomization',
    );
    expect(studyMenu('PI', 7, ['randomization.manage']).map((entry) => entry.key)).not.toContain(
      'randomization',
    );
  });

  it('adds the designer last for the study designers only, in either set', () => {
    expect(studyMenu('CRA', 7, ['subject.read', 'study.design']).at(-1)).toMatchObject({
      key: 'design',
      to: '/design/7?menu-type=CRA',
    });
    expect(studyMenu('PI', 7, ['study.design']).at(-1)?.key).toBe('design');
    expect(studyMenu('CRA', 7, ['subject.read']).map((entry) => entry.key)).not.toContain('design');
  });

  it('has the reduced task-list menu', () => {
    expect(taskListMenu().map((entry) => entry.to)).toEqual(['/task-list', '/task-end-list']);
  });
});

describe('isCurrentLink', () => {
  it('compares the path only', () => {
    expect(isCurrentLink('/sdv/7?menu-type=CRA', '/sdv/7')).toBe(true);
    expect(isCurrentLink('/sdv/7?menu-type=CRA', '/sdv/8')).toBe(false);
    expect(isCurrentLink('/sdv/7', '/sdv/77')).toBe(false);
  });

  it('counts a page under the link’s page as current (a design’s version comparison)', () => {
    expect(isCurrentLink('/design/4', '/design/4/versions')).toBe(true);
    expect(isCurrentLink('/design/4', '/design/5/versions')).toBe(false);
  });
});
