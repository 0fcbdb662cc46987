import { describe, expect, it } from 'vitest';
import { isBlankRichText, sanitizeRichText } from './sanitize-html.ts';

describe('sanitizeRichText', () => {
  it('keeps the formatting the editor produces', () => {
    const html =
      '<h2 style="text-align: center">제목</h2><p><strong>굵게</strong> <em>기울임</em> <u>밑줄</u></p><ul><li>하나</li></ul>';
    expect(sanitizeRichText(html)).toBe(html.replace('text-align: center', 'text-align:center'));
  });

  it('removes scripts, event handlers and dangerous URLs', () => {
    const dirty =
      '<p onclick="steal()">hi<script>alert(1)</script></p><img src="/api/uploads/images/abc" onerror="alert(1)">' +
      '<a href="javascript:alert(1)">x</a><a href="https://example.org">ok</a><iframe src="https://evil"></iframe>' +
      '<img src="https://tracker.example/pixel.gif"><img src="data:image/png;base64,AAAA"><p style="color:red;position:fixed">s</p>';
    const clean = sanitizeRichText(dirty);
    expect(clean).not.toMatch(/script|onerror|onclick|javascript:|iframe|tracker|data:|color|position/);
    expect(clean).toContain('<img src="/api/uploads/images/abc" />');
    expect(clean).toContain('<a href="https://example.org" target="_blank" rel="noopener noreferrer">ok</a>');
  });

  it('tells an empty editor from content', () => {
    expect(isBlankRichText('<p></p>')).toBe(true);
    expect(isBlankRichText('<p> &nbsp; </p><p><br></p>')).toBe(true);
    expect(isBlankRichText('<p>a</p>')).toBe(false);
    expect(isBlankRichText('<p><img src="/api/uploads/images/x"></p>')).toBe(false);
  });
});
