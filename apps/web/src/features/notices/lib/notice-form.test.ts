import { NOTICE_TITLE_MAX } from '@cdms/contract';
import { describe, expect, it } from 'vitest';
import { isBlankHtml, validateNoticeForm } from './notice-form.ts';

describe('isBlankHtml', () => {
  it('finds an empty editor blank', () => {
    for (const html of ['', '<p></p>', '<p> </p><p>&nbsp;</p>', '<h2></h2><ul><li><p></p></li></ul>']) {
      expect(isBlankHtml(html), html).toBe(true);
    }
  });

  it('finds text or an image not blank', () => {
    expect(isBlankHtml('<p><strong>x</strong></p>')).toBe(false);
    expect(isBlankHtml('<p><img src="/api/uploads/images/1"></p>')).toBe(false);
  });
});

describe('validateNoticeForm', () => {
  it('asks for a title when it is empty after trimming', () => {
    expect(validateNoticeForm({ title: '   ', contentHtml: '<p>body</p>' })).toBe('form.titleRequired');
  });

  it('asks for a title first when both are missing', () => {
    expect(validateNoticeForm({ title: '', contentHtml: '<p></p>' })).toBe('form.titleRequired');
  });

  it('asks for content when the editor shows nothing', () => {
    expect(validateNoticeForm({ title: 'Visit schedule', contentHtml: '<p>  </p>' })).toBe(
      'form.contentRequired',
    );
  });

  it('refuses a title over the limit', () => {
    expect(validateNoticeForm({ title: 'x'.repeat(NOTICE_TITLE_MAX + 1), contentHtml: '<p>a</p>' })).toBe(
      'form.titleTooLong',
    );
  });

  it('accepts a title and some content, an image alone included', () => {
    expect(validateNoticeForm({ title: ' Visit ', contentHtml: '<p>a</p>' })).toBeNull();
    expect(
      validateNoticeForm({ title: 'Photo', contentHtml: '<p><img src="/api/uploads/images/abc"></p>' }),
    ).toBeNull();
  });
});
